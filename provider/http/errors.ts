/**
 * Typed errors for every service. Callers branch with `instanceof`; messages always say what to do next.
 * Nothing here ever holds a request header, so a token cannot reach an error message, a log line or state.
 */

export interface ApiErrorDetails {
  service: string;
  status?: number;
  code?: number | string;
  /** The service's finer code (Graph's `error_subcode`). */
  subcode?: number;
  message: string;
  remedy?: string;
  method?: string;
  path?: string;
  /** No answer came (TransportError): the message says "request failed". */
  noAnswer?: boolean;
}

export class ApiError extends Error {
  readonly service: string;
  /** The failure without its remedy: for a message that gives a remedy of its own. */
  readonly summary: string;
  readonly status?: number;
  readonly code?: number | string;
  readonly subcode?: number;
  readonly apiMessage: string;
  readonly remedy?: string;

  constructor(d: ApiErrorDetails) {
    const where = d.method && d.path ? ` (${d.method} ${d.path})` : "";
    // "request failed" only where a request did (no answer); a failure found in an answer (no zone of that name, a
    // model the runner lacks) is told as what it is, with the service's code if it gave one.
    const status = d.status ? `HTTP ${d.status}` : d.noAnswer ? "request failed" : "";
    const code = d.code !== undefined ? `${status ? ", " : ""}code ${d.code}` : "";
    const head = `${d.service}: ${status || code ? `${status}${code}: ` : ""}${d.message}${where}`;
    super(`${head}${d.remedy ? `. ${d.remedy}` : ""}`);
    this.summary = head;
    this.name = new.target.name;
    this.service = d.service;
    this.status = d.status;
    this.code = d.code;
    this.subcode = d.subcode;
    this.apiMessage = d.message;
    this.remedy = d.remedy;
  }
}

/** The credentials were refused or lack a permission. Never retried. */
export class AuthError extends ApiError {}
/** The object does not exist (read: gone; delete: already gone). */
export class NotFoundError extends ApiError {}
/** The object already exists: adopt it or import it. */
export class AlreadyExistsError extends ApiError {}
/** The service refused the request's content. */
export class ValidationError extends ApiError {}
/** Still rate limited after every retry. */
export class RateLimitError extends ApiError {}
/** The service failed (5xx) after every retry, or failed a request that is not safe to repeat. */
export class ServerError extends ApiError {}
/**
 * No answer: connection refused or dropped, or timed out. For a write the outcome is unknown, so handlers that can
 * look the object up by a natural key do so before reporting this.
 */
export class TransportError extends ApiError {
  readonly ambiguous: boolean;
  constructor(d: ApiErrorDetails & { ambiguous: boolean }) {
    super({ ...d, noAnswer: true }); // told by a flag, not the class's name (a bundler may rename classes)
    this.ambiguous = d.ambiguous;
  }
}

/** What failed, without the remedy an API error carries (the caller says what to do instead). */
export function summaryOf(e: unknown): string {
  return e instanceof ApiError ? e.summary : e instanceof Error ? e.message : String(e);
}

/** Missing or inconsistent provider configuration. */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ConfigError";
  }
}

/**
 * A credential that is set nowhere: `setting` is its stack config key, `env` its environment variables. A destroy
 * says it otherwise (door.ts): the engine runs a destroy with the configuration the last up left, so stack config
 * set since cannot reach it.
 */
export class MissingCredentialError extends ConfigError {
  constructor(
    message: string,
    readonly setting: string,
    readonly env: string,
  ) {
    super(message);
  }
}
