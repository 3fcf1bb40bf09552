/**
 * The MCP revisions the control client speaks and what they put on the wire: the revision asked for, the stateless
 * 2026-07-28 one's `_meta` and header encoding, and a JSON-RPC answer read from JSON or an event stream.
 */
import { parseSse, sseMessages } from "./sse";

/** The revision asked for in the 2025 handshake, and every revision this client speaks. */
export const PROTOCOL = "2025-11-25";
/** The stateless revision (no initialize, no session: each POST carries its version, method and client in itself). */
export const MODERN = "2026-07-28";
export const PROTOCOLS = [MODERN, "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"];

/** The JSON-RPC message in a plain JSON answer or in an event stream (the message with our id; a priming event has none). */
export function rpcAnswer(text: string, contentType: string, id: number): any {
  if (!contentType.includes("text/event-stream")) return JSON.parse(text);
  const messages = sseMessages(parseSse(text));
  return messages.reverse().find((m) => m.id === id) ?? messages.find((m) => m.id === undefined && m.error);
}

export interface Session {
  /** Undefined for a stateless server (and every 2026-07-28 one). */
  sid?: string;
  protocol: string;
  /** The 2026-07-28 revision: every request self-contained, found by `server/discover`. */
  modern?: boolean;
}

/** What a 2026-07-28 request carries in `params._meta`: its revision, the client's capabilities and name. */
export const MODERN_META = {
  "io.modelcontextprotocol/protocolVersion": MODERN,
  "io.modelcontextprotocol/clientCapabilities": {},
  "io.modelcontextprotocol/clientInfo": { name: "pulumi-ops", version: "1" },
};

/** A header value as 2026-07-28 sends one: as it is when plain visible ASCII, else `=?base64?…?=`. */
export const headerValue = (v: string) =>
  /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/.test(v) && !/^=\?base64\?.*\?=$/.test(v)
    ? v
    : `=?base64?${Buffer.from(v).toString("base64")}?=`;
