// @google/genai's Live client (`ai.live.connect`, on `ws`) as a client of Gemini Live over
// WebSocket: the socket opened and the SDK's setup answered (setupComplete), one user turn sent
// with sendClientContent and read to the turn's end (turnComplete), then the socket closed by
// the client. The key goes in the URL's query (`?key=`), as the SDK sends it. The SDK joins its
// base URL and the route's path with a slash of its own, so a base URL without a path (the
// recording upstream's, a gateway's root) gives `//ws/...`: that is the path it sends, and the
// one compared.
import { SESSION_PROMPT } from './script.js';
import { plainJson as plain, sdkDriver, socketClosed, socketEvents } from './sdk.js';
import { step, type StepResult } from './types.js';

const MODEL = 'gemini-2.0-flash-live-001';

type Any = any; // eslint-disable-line @typescript-eslint/no-explicit-any

export const genaiLive = sdkDriver({
  name: 'genai-live',
  protocol: 'native',
  feature: 'genai',
  pkg: '@google/genai',
  async steps(mod, o) {
    const ai = new mod.GoogleGenAI({ apiKey: o.token, httpOptions: { baseUrl: o.base, timeout: o.timeoutMs, headers: Object.fromEntries(o.headers) } });
    const ev = socketEvents((m) => !!m.serverContent?.modelTurn);
    const steps: StepResult[] = [];
    let session: Any = null;
    steps.push(
      await step('live.connect (setupComplete)', async () => {
        // The SDK's connect waits for the socket to open and does not settle when the upgrade is refused.
        const connect = ai.live.connect({
          model: MODEL,
          config: { responseModalities: [mod.Modality.TEXT] },
          callbacks: { onmessage: (m: Any) => ev.push(plain(m)), onerror: (e: Any) => ev.end(`error: ${e?.message ?? 'socket error'}`), onclose: (e: Any) => ev.end(`closed with ${e?.code}`) },
        });
        session = await ev.bounded(connect, o.timeoutMs, 'live.connect');
        return ev.until(0, (m) => m.setupComplete !== undefined, o.timeoutMs, 'setupComplete');
      }),
    );
    if (!session) return steps;
    const from = ev.got.length;
    session.sendClientContent({ turns: [{ role: 'user', parts: [{ text: SESSION_PROMPT }] }], turnComplete: true });
    steps.push(await step('sendClientContent (text turn)', () => ev.until(from, (m) => m.serverContent?.turnComplete === true, o.timeoutMs, 'turnComplete')));
    const closed = socketClosed(session.conn?.ws);
    session.close();
    await closed;
    return steps;
  },
});
