// The secrets the harness was given, remembered where they are given (the gateway client's
// credential) so that cuts of gateway text made before the report's scrub mask them first
// (maskCut, ./mask.ts). A run may keep its own (withOwnSecrets): the self-tests call the CLI many
// times in one process (test/helpers/in-process.ts), and one call's secrets are not another's.
import { AsyncLocalStorage } from 'node:async_hooks';

/** Shorter secrets are not searched for: a 3-character string would blank out ordinary text. */
export const MIN_SECRET = 4;

/** What is remembered outside any withOwnSecrets: for the life of the process. */
const known = new Set<string>();
/** The sets of withOwnSecrets, made at its first call: a process that never calls it keeps no async context. */
let scopes: AsyncLocalStorage<Set<string>> | undefined;
const here = (): Set<string> => scopes?.getStore() ?? known;

export function rememberSecret(secret: string): void {
  if (secret.length >= MIN_SECRET) here().add(secret);
}

/** The secrets remembered by this run (its withOwnSecrets), else by the process. */
export const remembered = (): string[] => [...here()];

/** Runs `fn` remembering secrets of its own: what it and all it starts remember is not masked in the cuts of other runs. */
export function withOwnSecrets<T>(fn: () => T): T {
  return (scopes ??= new AsyncLocalStorage()).run(new Set(), fn);
}
