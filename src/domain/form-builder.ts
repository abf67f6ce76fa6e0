// Form builder rules (section 5): field names are unique and array indexes run 0, 1, 2… without a
// gap (a gap means a row was dropped and the body would shift fields onto the wrong items).
// Errors are collected per field in field order; the first one is where the form scrolls.
import type { FormError } from './form-errors.ts';

export type FieldNameProblem =
  | { kind: 'duplicate'; name: string }
  | { kind: 'skippedIndex'; array: string; missing: number };

export function checkFieldNames(names: readonly string[]): FieldNameProblem[] {
  const problems: FieldNameProblem[] = [];
  const seen = new Set<string>();
  const indexes = new Map<string, Set<number>>();
  for (const name of names) {
    if (seen.has(name)) problems.push({ kind: 'duplicate', name });
    seen.add(name);
    for (const m of name.matchAll(/\[(\d+)\]/g)) {
      const array = name.slice(0, m.index);
      const set = indexes.get(array) ?? new Set<number>();
      set.add(Number(m[1]));
      indexes.set(array, set);
    }
  }
  for (const [array, set] of indexes) {
    const max = Math.max(...set);
    for (let i = 0; i <= max; i++) if (!set.has(i)) problems.push({ kind: 'skippedIndex', array, missing: i });
  }
  return problems;
}

export type FieldErrors = { errors: Record<string, FormError>; firstErrorField: string | null };

/** Runs each field's validator, keeping field order; fields without an error are left out. */
export function collectFieldErrors(fields: ReadonlyArray<readonly [name: string, validate: () => FormError | null]>): FieldErrors {
  const errors: Record<string, FormError> = {};
  let firstErrorField: string | null = null;
  for (const [name, validate] of fields) {
    const error = validate();
    if (error === null) continue;
    errors[name] = error;
    firstErrorField ??= name;
  }
  return { errors, firstErrorField };
}

/** The collapsed sections that hold an error and must be expanded. */
export function sectionsToExpand(errors: Record<string, FormError>, sectionOf: Readonly<Record<string, string>>): string[] {
  return [...new Set(Object.keys(errors).map((f) => sectionOf[f]).filter((s): s is string => s !== undefined))];
}
