/**
 * A real MinIO server (built by scripts/install-minio.sh into .tools/minio) on a free loopback port, with one
 * bucket, for the tests that keep Pulumi state in an S3-compatible store the way a team does. Requests of our own
 * (create the bucket, list what is in it) are signed with AWS Signature Version 4, as any S3 client signs them.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { createHash, createHmac, randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { ROOT } from "../../scripts/engine";
import { freePort } from "./ports";

const REGION = "us-east-1";
const sha256 = (data: string) => createHash("sha256").update(data).digest("hex");
const hmac = (key: Buffer | string, data: string) => createHmac("sha256", key).update(data).digest();

export class MinioServer {
  readonly accessKey = "pulumi-ops-test";
  readonly secretKey = randomBytes(16).toString("hex");
  endpoint = "";
  private child?: ChildProcess;
  private dataDir = "";

  /** Builds MinIO if needed (cached under .tools), starts it and creates `bucket`. */
  async start(bucket: string): Promise<this> {
    execFileSync("bash", [path.join(ROOT, "scripts/install-minio.sh")], { stdio: "inherit" });
    this.dataDir = mkdtempSync(path.join(tmpdir(), "pulumi-ops-minio-"));
    const port = await freePort();
    this.endpoint = `http://127.0.0.1:${port}`;
    this.child = spawn(
      path.join(ROOT, ".tools/minio/bin/minio"),
      ["server", this.dataDir, "--address", `127.0.0.1:${port}`, "--console-address", `127.0.0.1:${await freePort()}`],
      {
        env: {
          PATH: process.env.PATH,
          HOME: this.dataDir,
          MINIO_ROOT_USER: this.accessKey,
          MINIO_ROOT_PASSWORD: this.secretKey,
          MINIO_BROWSER: "off",
          MINIO_UPDATE: "off",
        },
        stdio: "ignore",
      },
    );
    for (let i = 0; ; i++) {
      const live = await fetch(`${this.endpoint}/minio/health/live`).then(
        (r) => r.ok,
        () => false,
      );
      if (live) break;
      if (i > 150 || this.child.exitCode !== null) throw new Error(`MinIO did not start on ${this.endpoint}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    const made = await this.request("PUT", `/${bucket}`);
    if (!made.ok) throw new Error(`creating bucket ${bucket}: ${made.status} ${await made.text()}`);
    return this;
  }

  /** The backend URL Pulumi documents for an S3-compatible endpoint (path-style, this endpoint, a region). */
  backendUrl(bucket: string): string {
    return `s3://${bucket}?endpoint=${encodeURIComponent(this.endpoint)}&use_path_style=true&region=${REGION}`;
  }

  /** The variables Pulumi reads the store's credentials from. */
  credentials(): Record<string, string> {
    return { AWS_ACCESS_KEY_ID: this.accessKey, AWS_SECRET_ACCESS_KEY: this.secretKey, AWS_REGION: REGION };
  }

  /** The keys of the objects under `prefix` in `bucket`. */
  async list(bucket: string, prefix = ""): Promise<string[]> {
    const res = await this.request("GET", `/${bucket}`, { "list-type": "2", prefix });
    const xml = await res.text();
    if (!res.ok) throw new Error(`listing ${bucket}: ${res.status} ${xml}`);
    return [...xml.matchAll(/<Key>([^<]*)<\/Key>/g)].map((m) => m[1]);
  }

  /** The text of one object. */
  async read(bucket: string, key: string): Promise<string> {
    const res = await this.request("GET", `/${bucket}/${key}`);
    if (!res.ok) throw new Error(`reading ${key}: ${res.status}`);
    return res.text();
  }

  async stop(): Promise<void> {
    if (this.child && this.child.exitCode === null) {
      const exited = new Promise((r) => this.child!.once("exit", r));
      this.child.kill("SIGTERM");
      await exited;
    }
    if (this.dataDir) rmSync(this.dataDir, { recursive: true, force: true });
  }

  /** A request signed with AWS Signature Version 4 (no body). */
  private request(method: string, pathname: string, query: Record<string, string> = {}): Promise<Response> {
    const url = new URL(this.endpoint + pathname);
    const amzDate = new Date()
      .toISOString()
      .replace(/[-:]/g, "")
      .replace(/\.\d{3}/, "");
    const day = amzDate.slice(0, 8);
    const payload = sha256("");
    const enc = (s: string) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
    const canonicalQuery = Object.keys(query)
      .sort()
      .map((k) => `${enc(k)}=${enc(query[k])}`)
      .join("&");
    const canonicalPath = url.pathname
      .split("/")
      .map((p) => enc(decodeURIComponent(p)))
      .join("/");
    const headers = `host:${url.host}\nx-amz-content-sha256:${payload}\nx-amz-date:${amzDate}\n`;
    const signed = "host;x-amz-content-sha256;x-amz-date";
    const canonical = [method, canonicalPath, canonicalQuery, headers, signed, payload].join("\n");
    const scope = `${day}/${REGION}/s3/aws4_request`;
    const toSign = ["AWS4-HMAC-SHA256", amzDate, scope, sha256(canonical)].join("\n");
    const key = hmac(hmac(hmac(hmac(`AWS4${this.secretKey}`, day), REGION), "s3"), "aws4_request");
    const signature = createHmac("sha256", key).update(toSign).digest("hex");
    return fetch(`${this.endpoint}${canonicalPath}${canonicalQuery ? `?${canonicalQuery}` : ""}`, {
      method,
      headers: {
        "x-amz-date": amzDate,
        "x-amz-content-sha256": payload,
        authorization: `AWS4-HMAC-SHA256 Credential=${this.accessKey}/${scope}, SignedHeaders=${signed}, Signature=${signature}`,
      },
    });
  }
}
