// The mock IdP's test users and the claims its tokens carry for them.
export interface TestUser {
  /** Login name; also the `preferred_username` claim. */
  readonly name: string;
  readonly sub: string;
  readonly email: string;
  readonly groups: readonly string[];
}

/** The profile's users: alice in `eng`, bob in `contractors`, carol in no allowed group. */
export function defaultUsers(domain = 'example.test'): TestUser[] {
  return [
    { name: 'alice', sub: 'user-alice', email: `alice@${domain}`, groups: ['eng'] },
    { name: 'bob', sub: 'user-bob', email: `bob@${domain}`, groups: ['contractors'] },
    { name: 'carol', sub: 'user-carol', email: `carol@${domain}`, groups: [] },
  ];
}

/** The ID token and userinfo claims of a user, groups under `groupsClaim`. */
export function claimsOf(user: TestUser, groupsClaim: string): Record<string, unknown> {
  return {
    sub: user.sub,
    email: user.email,
    email_verified: true,
    name: user.name,
    preferred_username: user.name,
    [groupsClaim]: [...user.groups],
  };
}
