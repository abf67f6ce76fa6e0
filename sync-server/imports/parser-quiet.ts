// Imported by feed.ts before podcast-partytime: the parser's logger (pino, level from
// PARTYTIME_LOG, read once as the package loads) would otherwise write every feed it cannot read,
// the whole input included, to stdout at 'warn'. An import's failure is the import's to report.
process.env.PARTYTIME_LOG ??= 'silent';
