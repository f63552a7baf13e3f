// Faults of the third round rebuilt from field reports against gateways: a translation that adds
// content the upstream never sent (an empty made-up web search on every answer whose chat
// message carries `annotations`); count_tokens answered by the gateway itself, counted locally.
import { routeOfRequest } from '../../src/protocol/index.js';
import type { Fault } from './types.js';

/** A local estimate of a count_tokens request's prompt: about four characters a token. */
const estimate = (body: Buffer) => Math.max(1, Math.round(body.length / 4));

export const FIELD_3_FAULTS: Fault[] = [
  {
    name: 'translate-invents-web-search',
    breaks: ['XLATE-ANS-1'],
    description: 'translates messages into chat completions, and maps an answer whose chat message carries `annotations: []` back with an empty made-up web search before its text (a server_tool_use block and a web_search_tool_result block with no results)',
    translate: { inventsWebSearch: true },
  },
  {
    name: 'count-tokens-local',
    breaks: ['MSG-CT-1'],
    description: 'answers POST /v1/messages/count_tokens itself with a count of its own (about four characters a token), never asking the upstream',
    intercept: (r, res) => {
      const at = routeOfRequest(r.method, r.path, r.headers);
      if (at?.protocol !== 'messages' || at.route !== 'count') return false;
      const body = JSON.stringify({ input_tokens: estimate(r.body) });
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) });
      res.end(body);
      return true;
    },
  },
];
