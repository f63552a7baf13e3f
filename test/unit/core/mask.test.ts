// The one masker (src/core/mask.ts) at each of its uses: the console and reports (scrubSecrets,
// tested in scrub.test.ts), a gateway's log lines, token-bearing bodies, the transcript digest's
// canonical text, and the replay lines.
import { describe, expect, it } from 'vitest';
import { maskCredentialsInText, maskTokens, maskUrl, replaceSecrets, scrubSecrets } from '../../../src/core/mask.js';
import { masker } from '../../../src/report/certify/transcript.js';
import { curlCommand, maskHeaderSpec } from '../../../src/report/run/replay.js';

const SECRET = 'sk-run-Secret/Value+1';

describe('one masker', () => {
  it('log lines: the secrets in any encoding, and anything that reads as a credential', () => {
    expect(maskCredentialsInText(`upstream key ${SECRET} ok`, [SECRET])).toBe('upstream key *** ok');
    expect(maskCredentialsInText(`upstream key ${encodeURIComponent(SECRET)} ok`, [SECRET])).toBe('upstream key *** ok');
    expect(maskCredentialsInText('authorization: Bearer abc.def x-api-key=zzz api_key="qq" token: t1 port=8080', [])).toBe('authorization: Bearer *** x-api-key=*** api_key="***" token: *** port=8080');
  });

  it('bodies: OAuth token fields and JWTs', () => {
    const body = '{"access_token":"eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.sig","refresh_token":"r-123","token_type":"Bearer"} also eyJa.eyJb.c';
    expect(maskTokens(body)).toBe('{"access_token":"***","refresh_token":"***","token_type":"Bearer"} also ***');
  });

  it('the transcript masks the credential in every encoding, as <credential>', () => {
    const m = masker([SECRET]);
    const hex = Buffer.from(SECRET).toString('hex');
    expect(m(`a ${SECRET} b ${hex.toUpperCase()} c ${JSON.stringify(SECRET).slice(1, -1)} d`)).toBe('a <credential> b <credential> c <credential> d');
    expect(replaceSecrets(`x${SECRET}x`, [SECRET], '#')).toBe('x#x');
    // Too short to search for: ordinary text would be blanked out.
    expect(m('abc')).toBe('abc');
  });

  it('the ?key= query is masked alike in a URL and in JSON text', () => {
    expect(maskUrl('/p?alt=sse&key=abc#f')).toBe('/p?alt=sse&key=***#f');
    expect(scrubSecrets('{"u":"/p?key=abc"}', [])).toBe('{"u":"/p?key=***"}');
    expect(maskUrl('/p?key=')).toBe('/p?key=');
  });

  it('replay lines show the added headers masked', () => {
    expect(maskHeaderSpec('x-team=blue')).toBe('x-team=***');
    expect(maskHeaderSpec('x-team=${TEAM}')).toBe('x-team=${TEAM}');
    const sent = { method: 'GET', path: '/v1/models', auth: 'bearer' as const, headers: [] as Array<[string, string]>, body: null, bodyBytes: 0 };
    expect(curlCommand('http://gw', sent, { basePath: '/', headers: ['x-team'], credential: 'bearer' })).toContain("-H 'x-team: ***'");
  });
});
