// Types of scripts/release.mjs for the tests.
export declare const UNRELEASED: string;
export declare function changelogWith(text: string, version: string, date: string, fallback: () => string[]): string;
export declare function pinned(text: string, version: string): string;
export declare function shippedBuild(pkg: { files: string[] }): string[];
