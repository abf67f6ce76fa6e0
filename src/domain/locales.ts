// The supported interface languages (specification section 1), in the catalogues' order: the
// base locale first and the pseudo-locale en-XA last. Paraglide compiles the same list from
// project.inlang/settings.json for the client; this copy is for code that must not load the
// Paraglide runtime (the server's checks of InterfaceLanguage, the domain's label functions).
// locales.test.ts keeps the two equal.
export const INTERFACE_LOCALES = ['en-US', 'de-DE', 'es-419', 'fr-FR', 'it-IT', 'pt-BR', 'en-XA'] as const;

export type InterfaceLocale = (typeof INTERFACE_LOCALES)[number];
