// Model discovery helpers: what the client keeps of a list, the latency statistics, the
// login detection, and the shape of the upstream's list.
import { describe, expect, it } from 'vitest';
import { keptByClient, latencyStats, loginSigns, parseModelList, type Discovery } from '../../../suites/discovery/common.js';
import { PLAN } from '../../../suites/discovery/discovery.models.latency.js';
import { MODELS, modelListBody } from '../../../src/protocols/messages/index.js';
import type { Expectation } from '../../../src/upstream/upstream.js';
import { shapeOf } from '../../../suites/shared/shape.js';
import { fakeResponse } from '../../helpers/response.js';

function discovery(status: number, headers: Array<[string, string]>, body: string): Discovery {
  const res = fakeResponse(status, headers, body);
  return { cred: 'bearer', res, shape: shapeOf(res), ms: 2, heldMs: 0, expectation: { hits: [] } as unknown as Expectation };
}

describe('latencyStats', () => {
  it('gives nearest-rank p50 and p95, min, max and mean', () => {
    const ms = Array.from({ length: 20 }, (_, i) => 20 - i); // 20..1, unsorted on purpose
    expect(latencyStats(ms)).toEqual({ n: 20, min: 1, p50: 10, p95: 19, max: 20, mean: 10.5 });
  });

  it('p95 of 30 calls is the 29th smallest; one slow call shows in max, not p50', () => {
    const ms = [...Array.from({ length: 29 }, () => 5), 4000];
    const s = latencyStats(ms);
    expect(s.p50).toBe(5);
    expect(s.p95).toBe(5);
    expect(s.max).toBe(4000);
  });

  it('a single value is every statistic; no value is a harness bug', () => {
    expect(latencyStats([3.14159])).toMatchObject({ n: 1, min: 3.1, p50: 3.1, p95: 3.1, max: 3.1 });
    expect(() => latencyStats([])).toThrow();
  });

  it('the latency plan has at least 20 calls with a valid credential, and calls without one and with a bad one', () => {
    expect(PLAN.filter((c) => c === 'bearer' || c === 'x-api-key').length).toBeGreaterThanOrEqual(20);
    expect(PLAN).toContain('none');
    expect(PLAN.filter((c) => c.startsWith('bad-')).length).toBeGreaterThan(0);
  });
});

describe('what the client keeps of a model list', () => {
  it('keeps ids that contain claude or anthropic in any case (as Claude Code 2.1.330 does), in order, and names the others', () => {
    const items = [
      { id: 'claude-sonnet-4-5-20250929', display_name: 'Claude Sonnet 4.5' },
      { id: 'gpt-4o' },
      { id: 'anthropic/claude-opus-4-1' },
      { id: 'bedrock/claude-3-5-haiku' },
      { id: 'Claude-Upper' },
      { id: 'us.anthropic.claude-sonnet-4-5-20250929-v1:0' },
      { id: 'Claude-Gateway-Alias' },
      { id: 'my-ANTHROPIC-route' },
      { id: 'claude' },
      { id: 'gpt-4o-2024-08-06' },
      { id: 'clau-de' },
    ];
    const { kept, ignored } = keptByClient(items);
    expect(kept.map((m) => m.id)).toEqual(['claude-sonnet-4-5-20250929', 'anthropic/claude-opus-4-1', 'bedrock/claude-3-5-haiku', 'Claude-Upper', 'us.anthropic.claude-sonnet-4-5-20250929-v1:0', 'Claude-Gateway-Alias', 'my-ANTHROPIC-route', 'claude']);
    expect(kept[0].display_name).toBe('Claude Sonnet 4.5');
    expect(ignored).toEqual(['gpt-4o', 'gpt-4o-2024-08-06', 'clau-de']);
  });

  it('the upstream list is realistic: every model kept, newest first, first_id and last_id set', () => {
    const body = JSON.parse(modelListBody());
    expect(body).toMatchObject({ has_more: false, first_id: MODELS[0].id, last_id: MODELS[MODELS.length - 1].id });
    const parsed = parseModelList(body);
    expect(parsed.ok && keptByClient(parsed.items).kept).toHaveLength(MODELS.length);
    const created = MODELS.map((m) => m.created_at);
    expect([...created].sort().reverse()).toEqual(created);
  });
});

describe('parseModelList', () => {
  it('reads id and display_name of each item', () => {
    expect(parseModelList({ data: [{ type: 'model', id: 'claude-x', display_name: 'X', created_at: '2025-01-01T00:00:00Z' }] })).toEqual({ ok: true, items: [{ id: 'claude-x', display_name: 'X' }] });
  });

  it('says why a body is not a list', () => {
    expect(parseModelList([])).toMatchObject({ ok: false, why: expect.stringMatching(/not a JSON object/) });
    expect(parseModelList({ object: 'list', models: [] })).toMatchObject({ ok: false, why: expect.stringMatching(/no `data` array/) });
    expect(parseModelList({ data: [{ id: 'claude-x' }, { name: 'claude-y' }] })).toMatchObject({ ok: false, why: expect.stringMatching(/data\[1\]/) });
  });
});

describe('loginSigns', () => {
  it('finds a sign-in redirect, an HTML login page and a password form', () => {
    expect(loginSigns(discovery(302, [['location', 'https://sso.example.com/oauth2/authorize?x=1']], ''))).toEqual(['a 302 redirect to https://sso.example.com/oauth2/authorize?x=1 (a sign-in URL)']);
    const page = '<!DOCTYPE html><html><body><h1>Sign in</h1><form action="/login"><input type="password" name="p"></form></body></html>';
    expect(loginSigns(discovery(200, [['content-type', 'text/html']], page))).toEqual(['an HTML page that asks to sign in', 'a password form']);
    expect(loginSigns(discovery(301, [['location', 'https://gateway.example.com/v1/models?limit=1000']], ''))).toEqual(['a 301 redirect to https://gateway.example.com/v1/models?limit=1000']);
  });

  it('finds nothing in a JSON list or a JSON 401', () => {
    expect(loginSigns(discovery(200, [['content-type', 'application/json']], modelListBody()))).toEqual([]);
    expect(loginSigns(discovery(401, [['content-type', 'application/json']], '{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}'))).toEqual([]);
  });
});
