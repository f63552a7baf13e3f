// What kind of answer the client got (a JSON error, an HTML page, a redirect), as Claude Code
// would see it; and how to keep a failed or bounded request as a result, not an exception.
import type { GwResponse } from '../../src/client/gateway.js';
import { GatewayTimeoutError, GatewayTransportError } from '../../src/client/gateway.js';
import { excerpt } from './evidence.js';
import { parseJson } from '../../src/core/json.js';
import { patientTimeout } from '../../src/core/stall.js';

export interface Shape {
  status: number;
  contentType: string;
  /** The body parses as JSON and is served as JSON (a `+json` type counts). */
  json: boolean;
  /** An HTML page: served as HTML or starting like one. */
  html: boolean;
  parsed?: unknown;
  /** For a 3xx: where it points. */
  location?: string;
  /** Why a client could not decode the body (content-encoding not what it claims). */
  decodeError?: string;
}

/** A credential no gateway accepts (masked in evidence like any credential). */
export const BAD_CREDENTIAL = 'sk-ant-api03-gwc-invalid-credential-0000000000';

const HTML_START = /^\s*(<!doctype html|<html|<head|<body|<title|<center|<h1|<form)/i;

export function looksHtml(contentType: string, text: string): boolean {
  return /text\/html|application\/xhtml/i.test(contentType) || HTML_START.test(text);
}

/** The body as JSON, or undefined. */
export function jsonOf(text: string): unknown {
  try {
    return parseJson(text);
  } catch {
    return undefined;
  }
}

export const isJsonType = (ct: string | undefined) => /json/i.test(ct ?? '');

/** What the client got, seen as Claude Code would: status, JSON or not, HTML or not. */
export function shapeOf(res: GwResponse): Shape {
  const contentType = res.header('content-type') ?? '';
  const text = res.text();
  let parsed: unknown;
  let parses = false;
  try {
    parsed = parseJson(text);
    parses = true;
  } catch {
    parses = false;
  }
  // A body its content-encoding says is compressed but is not: no client can read it, JSON or not.
  const readable = !res.decodeError;
  return { status: res.status, contentType, json: readable && parses && isJsonType(contentType), html: looksHtml(contentType, text), parsed: readable ? parsed : undefined, location: res.header('location'), ...(res.decodeError ? { decodeError: res.decodeError } : {}) };
}

export interface ErrorFields {
  /** The top-level `type` ("error" in the messages protocol). */
  kind?: unknown;
  type?: unknown;
  message?: unknown;
}

/** `type`, `error.type` and `error.message` of a messages-protocol error body. */
export function errorFields(parsed: unknown): ErrorFields | null {
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return null;
  const o = parsed as Record<string, unknown>;
  const e = o.error;
  if (!e || typeof e !== 'object' || Array.isArray(e)) return null;
  const err = e as Record<string, unknown>;
  return { kind: o.type, type: err.type, message: err.message };
}

/** A JSON body with an `error` object: an explicit error a client can read. */
export function isJsonError(s: Shape): boolean {
  return s.json && s.status >= 400 && errorFields(s.parsed) !== null;
}

/** Why a JSON error answer is not the error shape (an `error` object), said for a message; null when it is, or is no JSON error status. */
export function errorObjectMissing(s: Shape): string | null {
  if (!s.json || s.status < 400 || errorFields(s.parsed) !== null) return null;
  const e = s.parsed && typeof s.parsed === 'object' && !Array.isArray(s.parsed) ? (s.parsed as Record<string, unknown>).error : undefined;
  const what = e === undefined ? 'has no `error`' : `has an \`error\` that is ${Array.isArray(e) ? 'an array' : e === null ? 'null' : `a ${typeof e}`} (${excerpt(JSON.stringify(e), 80)})`;
  return `the ${s.status} body is JSON but ${what}, not an object with type and message as the requirement asks`;
}

/** One line describing what the client got, for messages and `actual`. */
export function describeShape(s: Shape, text: string): string {
  const what = s.decodeError ? `a body no client can read (${s.decodeError})` : s.html ? 'an HTML page' : s.json ? 'JSON' : `a non-JSON body`;
  const where = s.location ? ` to ${s.location}` : '';
  return `${s.status}${where} ${what} (content-type ${s.contentType || 'absent'}): ${excerpt(text, 160)}`;
}

/** Runs a request and keeps a failed connection or a bounded wait as a result, not an exception. */
export async function attempt<T>(fn: () => Promise<T>): Promise<{ ok: true; value: T } | { ok: false; kind: 'timeout' | 'transport'; error: string; code?: string }> {
  try {
    return { ok: true, value: await fn() };
  } catch (e) {
    if (e instanceof GatewayTimeoutError) return { ok: false, kind: 'timeout', error: e.message };
    if (e instanceof GatewayTransportError) return { ok: false, kind: 'transport', error: e.message, code: e.code };
    throw e;
  }
}

/**
 * Runs `fn` with a signal that fires at `ms` or when the check's own signal does (its time
 * limit), and cleans up after. Built by hand: on Node 20 an AbortSignal.timeout() given to
 * AbortSignal.any() can be garbage-collected before it fires (the composite holds its sources
 * weakly; reproduced with --expose-gc), and the bound silently disappears. The bound is the
 * gateway's silence, not this process's holds (src/core/stall.ts: put off by at most `ms` more).
 */
export async function withBound<T>(signal: AbortSignal, ms: number, fn: (s: AbortSignal) => Promise<T>): Promise<T> {
  const ac = new AbortController();
  const cancel = patientTimeout(() => ac.abort(new DOMException(`no answer within ${ms} ms`, 'TimeoutError')), ms);
  const onAbort = () => ac.abort(signal.reason);
  if (signal.aborted) onAbort();
  else signal.addEventListener('abort', onAbort, { once: true });
  try {
    return await fn(ac.signal);
  } finally {
    cancel();
    signal.removeEventListener('abort', onAbort);
  }
}
