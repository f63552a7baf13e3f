#!/usr/bin/env node
// Cuts a release: `npm run release -- 0.2.0` (or `node scripts/release.mjs 0.2.0`) in a clean
// checkout of the branch to release from.
//   1. the version goes into package.json and package-lock.json, and into the docs' pinned
//      references (`gw-conformance@vX.Y.Z`, `…/blob/vX.Y.Z/…`);
//   2. CHANGELOG.md's Unreleased section becomes the section of the version (dated); an empty
//      Unreleased section is filled with the subjects of the commits since the last tag;
//   3. these are committed on the branch ("release X.Y.Z");
//   4. the harness is compiled afresh, and a second commit, a child of that one, adds the
//      compiled files the package ships (package.json `files` under dist/) and dist/RELEASE;
//      the annotated tag vX.Y.Z points at it. The branch itself never carries dist/.
// So `uses: OWNER/gw-conformance@vX.Y.Z` finds the build on the ref: action.yml then installs
// only the runtime dependencies (`npm ci --omit=dev`) and compiles nothing. Nothing is pushed;
// the last line says what to push. Exit 2, with one line, when the version is not X.Y.Z, the
// work tree is not clean or the tag exists. docs/releasing.md tells the whole procedure.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = process.cwd();
const git = (args, opts = {}) => execFileSync('git', args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], ...opts }).trim();
const fail = (msg) => {
  process.stderr.write(`release: ${msg}\n`);
  process.exit(2);
};

/** The CHANGELOG's heading of the section that collects changes until the next release. */
export const UNRELEASED = '## Unreleased';
/** The files whose pinned release references follow the version. */
const PINNED = ['README.md', 'docs', 'examples'];

/** CHANGELOG.md's text with the Unreleased section moved under the version's heading (a fresh, empty Unreleased on top). */
export function changelogWith(text, version, date, fallback) {
  // A version cut again (its tag deleted to tag a later commit) keeps the section it has.
  if (text.includes(`\n## ${version} (`)) return text;
  const at = text.indexOf(`${UNRELEASED}\n`);
  if (at < 0) throw new Error(`CHANGELOG.md has no "${UNRELEASED}" section`);
  const bodyStart = at + UNRELEASED.length + 1;
  const next = text.indexOf('\n## ', bodyStart);
  const end = next < 0 ? text.length : next + 1;
  const body = text.slice(bodyStart, end).trim() || fallback().map((s) => `- ${s}`).join('\n');
  return `${text.slice(0, at)}${UNRELEASED}\n\n## ${version} (${date})\n\n${body}\n\n${text.slice(end)}`.replace(/\n{3,}/g, '\n\n').replace(/\n*$/, '\n');
}

/** The text with every pinned reference to a release tag moved to `version`. */
export function pinned(text, version) {
  return text.replace(/(gw-conformance@v)\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?/g, `$1${version}`).replace(/(\/blob\/v)\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?\//g, `$1${version}/`);
}

/** The paths of package.json `files` under dist/ (what the package ships of the build). */
export function shippedBuild(pkg) {
  return pkg.files.filter((f) => f.startsWith('dist/')).map((f) => f.replace(/\/$/, ''));
}

/** The Markdown and YAML files at or below `path` (a path from the root). */
function files(path) {
  const full = join(root, path);
  if (!existsSync(full)) return [];
  if (!statSync(full).isDirectory()) return /\.(md|ya?ml)$/.test(path) ? [path] : [];
  return readdirSync(full).flatMap((name) => files(join(path, name)));
}

function setVersion(version) {
  const pkgText = readFileSync(join(root, 'package.json'), 'utf8');
  writeFileSync(join(root, 'package.json'), pkgText.replace(/^( {2}"version": )"[^"]*"/m, `$1"${version}"`));
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8'));
  lock.version = version;
  lock.packages[''].version = version;
  writeFileSync(join(root, 'package-lock.json'), `${JSON.stringify(lock, null, 2)}\n`);
  for (const f of PINNED.flatMap(files)) {
    const text = readFileSync(join(root, f), 'utf8');
    const moved = pinned(text, version);
    if (moved !== text) writeFileSync(join(root, f), moved);
  }
}

function subjectsSinceLastTag() {
  let range = 'HEAD';
  try {
    range = `${git(['describe', '--tags', '--abbrev=0', '--match', 'v*'])}..HEAD`;
  } catch {
    /* no tag yet: every commit */
  }
  return git(['log', '--format=%s', range]).split('\n').filter(Boolean).map((s) => (s.length > 200 ? `${s.slice(0, 199)}…` : s));
}

/** The commit carrying the build: HEAD's tree plus the shipped build and dist/RELEASE, through a private index. */
function buildCommit(version, pkg) {
  rmSync(join(root, 'dist'), { recursive: true, force: true });
  execFileSync(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json'], { cwd: root, stdio: 'inherit' });
  writeFileSync(join(root, 'dist', 'RELEASE'), `${version}\n`);
  const index = join(mkdtempSync(join(tmpdir(), 'gwc-release-')), 'index');
  const env = { ...process.env, GIT_INDEX_FILE: index };
  try {
    git(['read-tree', 'HEAD'], { env });
    git(['add', '--force', '--', 'dist/RELEASE', ...shippedBuild(pkg).map((p) => `:(glob)${p}/**`), ':(exclude,glob)dist/**/*.map'], { env });
    const tree = git(['write-tree'], { env });
    const head = git(['rev-parse', 'HEAD']);
    return git(['commit-tree', tree, '-p', head, '-m', `release ${version}: the Action's build (dist/), compiled from ${head.slice(0, 12)}`]);
  } finally {
    rmSync(join(index, '..'), { recursive: true, force: true });
  }
}

function main(argv) {
  const version = argv[0];
  if (!version || !/^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?$/.test(version)) fail(`give the version as X.Y.Z (got ${version === undefined ? 'nothing' : JSON.stringify(version)}): npm run release -- 0.2.0`);
  const tag = `v${version}`;
  if (git(['status', '--porcelain', '--untracked-files=normal'])) fail('the work tree has changes: commit or stash them first');
  if (git(['tag', '--list', tag])) fail(`the tag ${tag} exists already`);
  const date = new Date().toISOString().slice(0, 10);
  setVersion(version);
  const changelog = join(root, 'CHANGELOG.md');
  writeFileSync(changelog, changelogWith(readFileSync(changelog, 'utf8'), version, date, subjectsSinceLastTag));
  git(['add', '--', 'package.json', 'package-lock.json', 'CHANGELOG.md', ...PINNED.filter((p) => existsSync(join(root, p)))]);
  if (git(['diff', '--cached', '--name-only'])) git(['commit', '-q', '-m', `release ${version}`]);
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const commit = buildCommit(version, pkg);
  git(['tag', '-a', tag, '-m', `gw-conformance ${version}`, commit]);
  const branch = git(['rev-parse', '--abbrev-ref', 'HEAD']);
  process.stdout.write(`release: ${tag} tags ${commit.slice(0, 12)} (${branch} plus the Action's build); push with: git push origin ${branch} ${tag}\n`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) main(process.argv.slice(2));
