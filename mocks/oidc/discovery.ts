// The mock IdP's discovery document (OpenID Connect Discovery 1.0): its endpoints under the
// issuer, the code flow with PKCE, confidential-client authentication and the claims it signs.
export function discoveryDocument(issuer: string, alg: string, groupsClaim: string): Record<string, unknown> {
  const i = issuer;
  return {
    issuer: i,
    authorization_endpoint: `${i}/authorize`,
    token_endpoint: `${i}/token`,
    userinfo_endpoint: `${i}/userinfo`,
    jwks_uri: `${i}/jwks`,
    revocation_endpoint: `${i}/revoke`,
    end_session_endpoint: `${i}/endsession`,
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    subject_types_supported: ['public'],
    id_token_signing_alg_values_supported: [alg],
    token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
    code_challenge_methods_supported: ['S256', 'plain'],
    scopes_supported: ['openid', 'email', 'profile', 'groups', 'offline_access'],
    claims_supported: ['sub', 'iss', 'aud', 'exp', 'iat', 'email', 'email_verified', 'name', 'preferred_username', groupsClaim],
  };
}
