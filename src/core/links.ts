// Where a reader finds how to fix a failed check: its anchor in the checks reference
// (docs/checks.md, one anchor per check id, generated with the advice of every check), as a URL of
// the repository at the release tag of the harness that ran (`…/blob/v0.1.0/docs/checks.md#id`),
// so a link in a report from CI opens the advice of that version on any machine: never a path
// into node_modules or into a runner's workspace. The one place that names the repository is
// package.json's `repository.url` (a fork or mirror changes it there; `homepage` and `bugs` must
// agree, test/project/release.test.ts checks it). Every reporter, the report files and `compare`
// take their links from here. test/unit/reporters/console-links.test.ts checks every link lands
// on a real anchor of the file the tag names.
import { VERSION, readText } from './paths.js';

/** The checks reference inside the package, as a path from the package root. */
export const CHECKS_DOC = 'docs/checks.md';

/** `git+https://host/owner/name.git` (package.json's form) as the web address `https://host/owner/name`. */
export function webAddress(url: string): string {
  return url.replace(/^git\+/, '').replace(/\.git$/, '').replace(/\/+$/, '');
}

const pkg = JSON.parse(readText('package.json')) as { repository?: string | { url?: string } };
const repositoryUrl = typeof pkg.repository === 'string' ? pkg.repository : pkg.repository?.url;
if (!repositoryUrl) throw new Error('gw-conformance: package.json names no repository.url');

/** The repository's web address, from package.json's `repository.url`. */
export const REPOSITORY = webAddress(repositoryUrl);

/** The release tag of a harness version. */
export const releaseTag = (version: string) => `v${version}`;

/** A file of the repository (a path from its root) at the release tag of `version`. */
export function docsUrl(path: string, version = VERSION): string {
  return `${REPOSITORY}/blob/${releaseTag(version)}/${path}`;
}

/** The link to the advice for check `id` in the checks reference of harness `version` (the one running by default). */
export function fixLink(id: string, version = VERSION): string {
  return `${docsUrl(CHECKS_DOC, version)}#${encodeURIComponent(id)}`;
}
