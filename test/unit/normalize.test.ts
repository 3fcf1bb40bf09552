import { describe, expect, it } from "vitest";
import {
  contentProblem,
  fullName,
  isHostname,
  isPrivateAddress,
  normalizeContent,
  normalizeName,
  sameContent,
} from "../../provider/edge/dns-record/normalize";

describe("DNS names", () => {
  it("treats @, a label and a full name of the same host as equal", () => {
    expect(fullName("@", "example.com")).toBe("example.com");
    expect(fullName("www", "example.com")).toBe("www.example.com");
    expect(fullName("WWW.Example.com.", "example.com")).toBe("www.example.com");
    expect(fullName("example.com", "example.com")).toBe("example.com");
  });

  it("normalises idempotently", () => {
    for (const n of ["@", "WWW", "a.b.example.com.", "_dmarc", "*.example.com"]) {
      expect(normalizeName(normalizeName(n))).toBe(normalizeName(n));
    }
  });

  it("refuses hostile names", () => {
    for (const bad of ["a/b", "a\\b", "a b", "a\nb", "-lead", "x".repeat(64), `${"a.".repeat(127)}com`, "a..b", "www.*"]) {
      expect(isHostname(bad), bad).toBe(false);
    }
    expect(isHostname("*.example.com")).toBe(true);
    expect(isHostname("_acme-challenge.example.com")).toBe(true);
  });
});

describe("DNS content", () => {
  it("canonicalises IPv6 and host names the way the service answers", () => {
    expect(normalizeContent("AAAA", "2001:DB8:0:0::10")).toBe("2001:db8::10");
    expect(normalizeContent("AAAA", "2001:0db8:0000:0000:0000:0000:0000:0010")).toBe("2001:db8::10");
    expect(normalizeContent("CNAME", "Target.Example.NET.")).toBe("target.example.net");
    expect(normalizeContent("TXT", "Keep Case.")).toBe("Keep Case.");
    expect(sameContent("AAAA", "2001:db8::10", "2001:DB8:0::10")).toBe(true);
    expect(sameContent("A", "203.0.113.1", "203.0.113.2")).toBe(false);
  });

  it("names the problem per type", () => {
    expect(contentProblem("A", "203.0.113.300")).toMatch(/IPv4/);
    expect(contentProblem("A", "2001:db8::1")).toMatch(/IPv4/);
    expect(contentProblem("AAAA", "203.0.113.1")).toMatch(/IPv6/);
    expect(contentProblem("CNAME", "not a host")).toMatch(/host name/);
    expect(contentProblem("TXT", "x".repeat(2049))).toMatch(/2048/);
    expect(contentProblem("TXT", "bell\u0007")).toMatch(/control/);
    expect(contentProblem("A", "203.0.113.1")).toBeUndefined();
  });

  it("knows the private addresses the proxy refuses (1004)", () => {
    for (const ip of ["10.1.2.3", "172.16.0.1", "192.168.1.1", "127.0.0.1"]) expect(isPrivateAddress("A", ip), ip).toBe(true);
    for (const ip of ["fd00::1", "::1", "fe80::1"]) expect(isPrivateAddress("AAAA", ip), ip).toBe(true);
    expect(isPrivateAddress("A", "203.0.113.10")).toBe(false);
    expect(isPrivateAddress("AAAA", "2001:db8::1")).toBe(false);
  });
});
