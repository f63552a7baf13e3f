import { defineCheck, fail, pass, type Verdict } from '../../src/check/check.js';
import { tryParse } from '../../src/core/json.js';
import { maskUrl } from '../../src/core/mask.js';
import { chatCompletion, chatJsonReply } from '../../src/protocols/chat/index.js';
import { chatSend, exchange, type Exchange, nativeSend, notForwarded } from '../shared/exchange.js';
import { chatBody, nativeBody, pathFamily } from '../shared/protocols.js';
import type { Protocol } from '../../src/core/protocols.js';
import { exchangeEvidence } from '../shared/evidence.js';

/** Which protocol a body belongs to, by its top-level fields: `contents` (native) or `messages` (chat). */
function bodyKind(text: string): 'native' | 'chat' | 'other' {
  const p = tryParse(text);
  if (!p.ok || p.node.t !== 'obj') return 'other';
  const keys = p.node.entries.map(([k]) => k);
  if (keys.includes('contents') && !keys.includes('messages')) return 'native';
  if (keys.includes('messages') && !keys.includes('contents')) return 'chat';
  return 'other';
}

/** Whether a body of `kind` is the body of `family`'s endpoint: contents for native, messages for the others. */
const fits = (family: Protocol, kind: 'native' | 'chat') => (family === 'native' ? kind === 'native' : kind === 'chat');

/**
 * A request on a path of no protocol, or a body of one protocol on another's endpoint, is a
 * finding; a request forwarded to another protocol's endpoint with that protocol's body is a
 * translated route (the gateway translates: the checks of translated routes judge it).
 */
function judge(x: Exchange, sentAs: 'native' | 'chat'): Verdict | null {
  if (!x.seen) return notForwarded(x);
  const family = pathFamily(x.seen.url);
  const kind = bodyKind(x.seen.body.toString('utf8'));
  const where = `${x.seen.method} ${maskUrl(x.seen.url)}`;
  if (family === 'other')
    return fail(`a ${sentAs} request was forwarded to a path of no protocol (${where})`, { expected: `the ${sentAs} endpoint`, actual: maskUrl(x.seen.url), evidence: exchangeEvidence(x) });
  if (kind !== 'other' && !fits(family, kind))
    return fail(`a ${sentAs} request reached the upstream as a ${kind} body on the ${family} endpoint (${where})`, {
      expected: `a ${kind} body only on a ${kind} endpoint`,
      actual: `${kind} body at ${maskUrl(x.seen.url)}`,
      evidence: exchangeEvidence(x),
    });
  return null;
}

export default defineCheck({
  id: 'native.cross.protocol',
  title: 'A native body arrives only on the native endpoint and a chat body only on the chat endpoint',
  requirements: ['NAT-X-1'],
  level: 'MUST',
  protocol: 'native',
  requirement: 'The gateway never sends a native body (contents) to the chat-completions endpoint, nor a chat body (messages) to the native one: each request reaches the upstream on its own protocol\'s endpoint.',
  fix: 'Route each request by its path to its own protocol\'s upstream: a native body never to chat completions, a chat body never to the native endpoint.',
  async run(ctx) {
    const nat = await exchange(ctx, nativeBody(), nativeSend());
    const v1 = judge(nat, 'native');
    if (v1) return v1;
    const chat = await exchange(ctx, chatBody(), chatSend({ reply: chatJsonReply(chatCompletion()) }));
    const v2 = judge(chat, 'chat');
    if (v2) return v2;
    return pass(`the native body arrived on the ${pathFamily(nat.seen!.url)} endpoint with a body of its own, and the chat body on the ${pathFamily(chat.seen!.url)} endpoint`, { native: maskUrl(nat.seen!.url), chat: chat.seen!.url });
  },
});
