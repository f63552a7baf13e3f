// The count of child processes the self-tests' setup file keeps (test/helpers/self-costs-probe.ts):
// every way node:child_process starts one counts it once, through the imports a test file uses,
// a start that fails before there is a process counts nothing, and an asynchronous child counts
// as running until its exit.
import { exec, execFile, execFileSync, execSync, fork, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { installSpawnCount, running, sampleCpu, spawned } from '../helpers/self-costs-probe.js';

const exited = (c: ChildProcess) => new Promise<number | null>((done) => c.once('exit', done));

/** How many children `start` counted. */
async function counted(start: () => unknown): Promise<number> {
  const before = spawned();
  await start();
  return spawned() - before;
}

describe('the child processes a test file starts', () => {
  // The setup file has installed the count already; installing again changes nothing.
  beforeAll(() => installSpawnCount());

  it('spawn, execFile, exec (a shell, one process), fork: one each', async () => {
    expect(await counted(() => exited(spawn('true')))).toBe(1);
    expect(await counted(() => promisify(execFile)('true'))).toBe(1);
    expect(await counted(() => promisify(exec)('true; true'))).toBe(1);
    expect(await counted(async () => expect(await exited(fork('/dev/null', [], { stdio: 'ignore' }))).toBe(0))).toBe(1);
  });

  it('spawnSync, execSync and execFileSync: one each, and one for a child that exits 1', async () => {
    expect(await counted(() => spawnSync('true'))).toBe(1);
    expect(await counted(() => execSync('true'))).toBe(1);
    expect(await counted(() => execFileSync('true'))).toBe(1);
    expect(await counted(() => expect(() => execFileSync('false')).toThrow())).toBe(1);
  });

  it('a program that does not exist starts no process and counts none', async () => {
    const missing = '/nonexistent/gwc-no-such-program';
    expect(await counted(() => new Promise((done) => spawn(missing).once('error', done)))).toBe(0);
    expect(await counted(() => spawnSync(missing))).toBe(0);
    expect(await counted(() => expect(() => execFileSync(missing)).toThrow(/ENOENT/))).toBe(0);
  });

  it('an asynchronous child is running until its exit, and a sample says how many started and run', async () => {
    const was = running();
    const child = spawn(process.execPath, ['-e', 'process.stdin.resume(); process.stdin.on("end", () => process.exit(0))']);
    const during = sampleCpu();
    expect(running()).toBe(was + 1);
    expect(during).toMatchObject({ spawned: spawned(), running: was + 1 });
    child.stdin?.end();
    expect(await exited(child)).toBe(0);
    expect(running()).toBe(was);
    expect(sampleCpu().running).toBe(was);
  });
});
