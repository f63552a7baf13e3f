// --websockets and --websocket-idle-s: the routes the gateway serves (of its declared protocols
// only), `none`, the default, and a value that is no route refused with its flag named.
import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../../src/config/config.js';

const cfg = (flags: Record<string, unknown>, env: NodeJS.ProcessEnv = {}) => resolveConfig({ token: 'sk-x', ...flags } as never, {}, env);

describe('the WebSocket routes a gateway serves', () => {
  it('every route by default, held 10 s when quiet', () => {
    expect(cfg({}).websockets).toEqual({ served: ['responses', 'realtime', 'live'], idleS: 10 });
  });
  it('the routes named, of the declared protocols only (Realtime rides on responses, Live on native)', () => {
    expect(cfg({ websockets: ['live', 'realtime'] }).websockets.served).toEqual(['realtime', 'live']);
    expect(cfg({ protocols: ['messages', 'native'] }).websockets.served).toEqual(['live']);
    expect(cfg({ protocols: ['messages'] }).websockets.served).toEqual([]);
  });
  it('none serves none; the environment and the idle bound are read', () => {
    expect(cfg({ websockets: ['none'] }).websockets.served).toEqual([]);
    expect(cfg({}, { GWC_WEBSOCKETS: 'responses', GWC_WEBSOCKET_IDLE_S: '75' }).websockets).toEqual({ served: ['responses'], idleS: 75 });
  });
  it('a value that is no route is refused, naming the flag', () => {
    expect(() => cfg({ websockets: ['sse'] })).toThrow(/websockets/);
  });
});
