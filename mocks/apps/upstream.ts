// A recording messages upstream of the apps profile: one per configured upstream name, so
// routing is observed by which upstream received a request. It answers /v1/messages (JSON or
// SSE) and records every request. The prompt steers it: `gwc-usage=IN/OUT[/CACHE_CREATION/CACHE_READ]`
// sets the usage it reports (the spend checks; a stream reports input and cache counts in
// `message_start`, output in `message_delta`), `gwc-usage=none` reports no usage at all,
// `gwc-cut` ends a stream after `message_start` and one text delta by dropping the connection,
// `gwc-status=NNN` makes it answer that error status, and any `GWC-CANARY-...` string in the
// prompt is echoed in the completion (the telemetry checks).
import http from 'node:http';
import { LoopbackServer } from '../../src/core/server.js';

export interface AppsUpstreamRequest {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: Record<string, unknown> | null;
  at: number;
}

export class AppsRecordingUpstream extends LoopbackServer {
  readonly requests: AppsUpstreamRequest[] = [];

  constructor(readonly name: string) {
    super(`apps upstream ${name}`);
  }

  protected handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      let body: Record<string, unknown> | null = null;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
      } catch {
        body = null;
      }
      this.requests.push({ path: (req.url ?? '/').split('?')[0]!, headers: req.headers, body, at: Date.now() });
      this.answer(req, body, res);
    });
  }

  private answer(req: http.IncomingMessage, body: Record<string, unknown> | null, res: http.ServerResponse): void {
    if (req.method !== 'POST' || !(req.url ?? '').startsWith('/v1/messages') || !body) {
      res.writeHead(404, { 'content-type': 'application/json' });
      return void res.end(JSON.stringify({ type: 'error', error: { type: 'not_found_error', message: 'not found' } }));
    }
    const prompt = JSON.stringify(body.messages ?? '');
    const usage = /gwc-usage=(\d+)\/(\d+)(?:\/(\d+)\/(\d+))?/.exec(prompt);
    const noUsage = prompt.includes('gwc-usage=none');
    const status = /gwc-status=(\d{3})/.exec(prompt);
    const canary = /GWC-CANARY-[A-Za-z0-9-]+/.exec(prompt)?.[0];
    if (status) {
      res.writeHead(Number(status[1]), { 'content-type': 'application/json' });
      return void res.end(JSON.stringify({ type: 'error', error: { type: 'api_error', message: `upstream ${this.name} failed on purpose${canary ? ` (${canary})` : ''}` } }));
    }
    const cache = usage?.[3] !== undefined ? { cache_creation_input_tokens: Number(usage[3]), cache_read_input_tokens: Number(usage[4]) } : {};
    const u = { input_tokens: usage ? Number(usage[1]) : 10, output_tokens: usage ? Number(usage[2]) : 5, ...cache };
    const { output_tokens: _out, ...startUsage } = u;
    const text = `reply from ${this.name}${canary ? ` ${canary}` : ''}`;
    const model = String(body.model);
    const id = `msg_${this.name}_${this.requests.length}`;
    if (body.stream === true) {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      const ev = (type: string, data: unknown) => res.write(`event: ${type}\ndata: ${JSON.stringify(data)}\n\n`);
      ev('message_start', { type: 'message_start', message: { id, type: 'message', role: 'assistant', model, content: [], stop_reason: null, ...(noUsage ? {} : { usage: { ...startUsage, output_tokens: 1 } }) } });
      ev('content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } });
      ev('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } });
      // The connection ends (FIN after what was written) without the stream's last chunk: an interrupted stream.
      if (prompt.includes('gwc-cut')) return void res.socket?.end();
      ev('content_block_stop', { type: 'content_block_stop', index: 0 });
      ev('message_delta', { type: 'message_delta', delta: { stop_reason: 'end_turn' }, ...(noUsage ? {} : { usage: { output_tokens: u.output_tokens } }) });
      ev('message_stop', { type: 'message_stop' });
      return void res.end();
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ id, type: 'message', role: 'assistant', model, content: [{ type: 'text', text }], stop_reason: 'end_turn', ...(noUsage ? {} : { usage: u }) }));
  }
}
