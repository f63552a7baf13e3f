// Faults of the third round rebuilt from field reports against gateways: a translation that adds
// content the upstream never sent (an empty made-up web search on every answer whose chat
// message carries `annotations`).
import type { Fault } from './types.js';

export const FIELD_3_FAULTS: Fault[] = [
  {
    name: 'translate-invents-web-search',
    breaks: ['XLATE-ANS-1'],
    description: 'translates messages into chat completions, and maps an answer whose chat message carries `annotations: []` back with an empty made-up web search before its text (a server_tool_use block and a web_search_tool_result block with no results)',
    translate: { inventsWebSearch: true },
  },
];
