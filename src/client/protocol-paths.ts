// Which protocol a request path belongs to, and each protocol's default credential style:
// what the client needs to apply a protocol's targeting (src/config/targeting.ts). Stands
// alone (no import of src/core/check.ts, which imports the client).
export type ProtocolOfPath = 'messages' | 'native' | 'chat';
export type CredentialStyleName = 'bearer' | 'x-api-key' | 'x-goog-api-key' | 'key-query' | 'none';

/** The credential style each protocol's client uses by default (spec 5). */
export const DEFAULT_CREDENTIAL: Record<ProtocolOfPath, CredentialStyleName> = { messages: 'bearer', native: 'x-goog-api-key', chat: 'bearer' };

/** The protocol a request path belongs to (discovery and count_tokens are the messages protocol's). */
export function protocolOfPath(path: string): ProtocolOfPath {
  if (/^\/v1beta\//.test(path)) return 'native';
  if (/^\/v1\/chat\//.test(path)) return 'chat';
  return 'messages';
}

/** What the client applies per protocol: base path, headers (expanded), credential style. */
export type ClientTargeting = Record<ProtocolOfPath, { basePath: string; headers: Array<[string, string]>; credential?: CredentialStyleName }>;
