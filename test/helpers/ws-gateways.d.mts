// Types of test/helpers/ws-gateways.mjs for the tests that import it (test/real/proxies/websockets.test.ts).
import type { ChildProcess } from 'node:child_process';

export type WsProxy = 'nginx-plain' | 'nginx-streaming' | 'nginx-websockets' | 'caddy' | 'haproxy' | 'reference';
export const WS_PROXIES: WsProxy[];
export interface Child {
  child: ChildProcess;
  stdout: string;
  stderr: string;
}
export function proxyCommand(name: WsProxy, root: string, listen: number, upstream: number, work: string): [string, (string | number)[], Record<string, string>];
export function startChild(cmd: string, args: (string | number)[], env: Record<string, string>, cwd: string): Child;
export function listening(proc: Child, port: number, what: string): Promise<void>;
export function stopChild(proc: Child | undefined): Promise<void>;
