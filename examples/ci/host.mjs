#!/usr/bin/env node
// What the CI jobs ask of their host (GitHub or GitLab, told apart by the variables each sets), with Node alone:
//   node host.mjs comment <report.md>   posts the report on the pull/merge request, or updates in place the one
//                                       posted before for the same stack (found by the report's first line), so a
//                                       request carries one comment per stack however often it is pushed
//   node host.mjs plan <file>           on main: saves the update plan of the request this commit merged (the one
//                                       its reviewers saw) to <file>; exits 3 when there is none
// GitHub: GITHUB_API_URL, GITHUB_REPOSITORY, GITHUB_TOKEN, GITHUB_SHA, PR_NUMBER (comment), PLAN_ARTIFACT
// GitLab: CI_API_V4_URL, CI_PROJECT_ID, GITLAB_API_TOKEN, CI_COMMIT_SHA, CI_MERGE_REQUEST_IID (comment), PLAN_JOB
import { readFileSync, writeFileSync } from "node:fs";
import { inflateRawSync } from "node:zlib";

const env = process.env;
const [command, file] = process.argv.slice(2);
const github = Boolean(env.GITHUB_API_URL && env.GITHUB_REPOSITORY);
const gitlab = Boolean(env.CI_API_V4_URL && env.CI_PROJECT_ID);
if (!file || !["comment", "plan"].includes(command) || github === gitlab) {
  console.error("usage: node host.mjs comment <report.md> | plan <file>, in a GitHub Actions or GitLab CI job");
  process.exit(2);
}

/** One call to the host's REST API; retries what the host says is transient, names the call when it fails. */
async function call(method, path, body, { raw = false, missingOk = false } = {}) {
  const base = github ? `${env.GITHUB_API_URL}/repos/${env.GITHUB_REPOSITORY}` : `${env.CI_API_V4_URL}/projects/${encodeURIComponent(env.CI_PROJECT_ID)}`;
  const headers = github
    ? { authorization: `Bearer ${env.GITHUB_TOKEN}`, accept: "application/vnd.github+json", "x-github-api-version": "2022-11-28" }
    : { "private-token": env.GITLAB_API_TOKEN ?? "" };
  if (body) headers["content-type"] = "application/json";
  for (let attempt = 1; ; attempt++) {
    const res = await fetch(base + path, { method, headers, body: body && JSON.stringify(body) });
    if (res.ok) return raw ? Buffer.from(await res.arrayBuffer()) : res.json();
    if (missingOk && res.status === 404) return undefined;
    // A listing or an edit repeated is harmless; a POST is repeated only when the host refused it (429) or
    // never took it (502/503), never after an answer that may mean it was made.
    const transient = res.status === 429 || res.status === 502 || res.status === 503 || (method !== "POST" && res.status >= 500);
    if (!transient || attempt === 3) throw new Error(`${method} ${path}: ${res.status} ${(await res.text()).slice(0, 200)}`);
    await new Promise((r) => setTimeout(r, 1000 * attempt));
  }
}

/** Every page of a listing. */
async function* pages(path) {
  for (let page = 1; ; page++) {
    const items = await call("GET", `${path}${path.includes("?") ? "&" : "?"}per_page=100&page=${page}`);
    yield* items;
    if (items.length < 100) return;
  }
}

async function comment() {
  const body = readFileSync(file, "utf8");
  const marker = body.split("\n", 1)[0];
  const number = github ? env.PR_NUMBER : env.CI_MERGE_REQUEST_IID;
  if (!number) throw new Error(github ? "PR_NUMBER is not set: pass github.event.pull_request.number" : "CI_MERGE_REQUEST_IID is not set: run this in a merge request pipeline");
  const list = github ? `/issues/${number}/comments` : `/merge_requests/${number}/notes`;
  let previous;
  for await (const c of pages(list)) if (c.body?.split("\n", 1)[0] === marker && !c.system) previous = c;
  if (previous) {
    await call(github ? "PATCH" : "PUT", github ? `/issues/comments/${previous.id}` : `/merge_requests/${number}/notes/${previous.id}`, { body });
    console.log(`updated comment ${previous.id}`);
  } else {
    const made = await call("POST", list, { body });
    console.log(`posted comment ${made.id}`);
  }
}

/** One file of a zip archive as GitHub serves an artifact, found through the archive's central directory (the
 * local headers may carry no sizes). */
function unzip(zip, name) {
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (end < 0) throw new Error("the artifact is not a zip archive");
  let at = zip.readUInt32LE(end + 16);
  for (let i = 0; i < zip.readUInt16LE(end + 10); i++) {
    const method = zip.readUInt16LE(at + 10);
    const size = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const local = zip.readUInt32LE(at + 42);
    if (zip.toString("utf8", at + 46, at + 46 + nameLength) === name) {
      const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
      const data = zip.subarray(start, start + size);
      return method === 8 ? inflateRawSync(data) : data;
    }
    at += 46 + nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
  }
  return undefined;
}

async function plan() {
  const sha = github ? env.GITHUB_SHA : env.CI_COMMIT_SHA;
  let saved;
  if (github) {
    const name = env.PLAN_ARTIFACT ?? "pulumi-plan";
    const [pr] = await call("GET", `/commits/${sha}/pulls`);
    if (pr) {
      const runs = await call("GET", `/actions/runs?event=pull_request&status=success&head_sha=${pr.head.sha}`);
      for (const run of runs.workflow_runs ?? []) {
        const { artifacts } = await call("GET", `/actions/runs/${run.id}/artifacts?name=${encodeURIComponent(name)}`);
        const artifact = artifacts.find((a) => a.name === name && !a.expired);
        if (artifact) saved = unzip(await call("GET", `/actions/artifacts/${artifact.id}/zip`, undefined, { raw: true }), "plan.json");
        if (saved) break;
      }
    }
  } else {
    const job = env.PLAN_JOB ?? "preview";
    const mrs = await call("GET", `/repository/commits/${sha}/merge_requests`);
    const mr = mrs.find((m) => m.state === "merged") ?? mrs[0];
    if (mr) {
      for await (const pipeline of pages(`/merge_requests/${mr.iid}/pipelines`)) {
        const jobs = await call("GET", `/pipelines/${pipeline.id}/jobs?scope[]=success`);
        const preview = jobs.find((j) => j.name === job);
        if (preview) { saved = await call("GET", `/jobs/${preview.id}/artifacts/plan.json`, undefined, { raw: true, missingOk: true }); if (saved) break; }
      }
    }
  }
  if (!saved) {
    console.error(`no reviewed plan for ${sha}: it merged no request whose preview succeeded (or the plan expired)`);
    process.exit(3);
  }
  writeFileSync(file, saved);
  console.log(`saved the reviewed plan to ${file}`);
}

(command === "comment" ? comment() : plan()).catch((e) => {
  console.error(`host.mjs ${command}: ${e.message}`);
  process.exit(1);
});
