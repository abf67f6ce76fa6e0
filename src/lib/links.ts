// External sites linked from the shell (section 2). Ours to choose; one place to change them.
export const DOCS_SITE = 'https://docs.castaway.studio';
export const STATUS_PAGE = 'https://status.castaway.studio';
export const MARKETING_SITE = 'https://castaway.studio';

/** Documentation help keys → article slugs. */
export const HELP_ARTICLES = {
  adMarkerRules: 'ad-marker-rules',
  webhooks: 'webhooks',
  twoFactorAuthentication: 'two-factor-authentication',
  customFields: 'custom-fields',
} as const;
export const docsLink = (key?: keyof typeof HELP_ARTICLES) => (key ? `${DOCS_SITE}/articles/${HELP_ARTICLES[key]}` : DOCS_SITE);
export const learnLink = () => `${MARKETING_SITE}/learn`;
export const policiesLink = () => `${MARKETING_SITE}/policies`;
