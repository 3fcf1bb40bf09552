/**
 * Server-sent events as MCP's Streamable HTTP sends them: events split by a blank line, each with `id:`, `retry:`,
 * `event:` and `data:` lines. Since revision 2025-11-25 a server may open a stream with a priming event (an `id` and
 * empty `data`) and close it before the answer: the client then resumes with `GET` and `Last-Event-ID`.
 */

export interface SseEvent {
  id?: string;
  event?: string;
  data: string;
}

export interface SseStream {
  events: SseEvent[];
  /** The last event id seen: where a resumed stream picks up. */
  lastId?: string;
  /** The wait the server asked for before reconnecting (ms). */
  retryMs?: number;
}

export function parseSse(text: string): SseStream {
  const out: SseStream = { events: [] };
  for (const block of text.replace(/\r\n?/g, "\n").split("\n\n")) {
    if (!block.trim()) continue;
    const e: SseEvent = { data: "" };
    const data: string[] = [];
    for (const line of block.split("\n")) {
      if (line.startsWith(":")) continue; // a comment
      const colon = line.indexOf(":");
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
      if (field === "data") data.push(value);
      else if (field === "id") e.id = value;
      else if (field === "event") e.event = value;
      else if (field === "retry" && /^\d+$/.test(value)) out.retryMs = Number(value);
    }
    e.data = data.join("\n");
    if (e.id !== undefined) out.lastId = e.id;
    out.events.push(e);
  }
  return out;
}

/**
 * The JSON-RPC messages the events carry (a priming event's empty data carries none). Reading may stop mid-event,
 * just after the answer: an unfinished last event is left out, any other that is not JSON is the server's fault.
 */
export function sseMessages(stream: SseStream): any[] {
  const events = stream.events.filter((e) => e.data.trim() && (e.event ?? "message") === "message");
  return events.flatMap((e, i) => {
    try {
      return [JSON.parse(e.data)];
    } catch (err) {
      if (i === events.length - 1) return [];
      throw err;
    }
  });
}

/** Whether the text read so far holds a complete event answering `id` (reading may stop there). */
export function holdsAnswer(text: string, id: number): boolean {
  const complete = text.replace(/\r\n?/g, "\n");
  const end = complete.lastIndexOf("\n\n");
  if (end < 0) return false;
  try {
    return sseMessages(parseSse(complete.slice(0, end + 2))).some((m) => m.id === id && ("result" in m || "error" in m));
  } catch {
    return false;
  }
}
