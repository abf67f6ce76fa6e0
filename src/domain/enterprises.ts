// Enterprises (issue 33, the staff tools; section 6: "Enterprises shows to admins and to users with
// reseller access"; section 7: the enterprise calls under /internal/enterprises and the sales
// codes). An enterprise groups organizations managed together, such as a radio group reselling
// the studio to its stations; its users are the resellers who manage it; a sales code ties the
// organizations signing up with it to the enterprise and to the reseller who owns it.
//
//   who                          an enterprise of theirs     any other enterprise
//   admin                        sees, edits, opens          sees, edits, opens
//   reseller (HasResellerAccess) sees, edits, opens          404, as one that does not exist
//   anyone else                  403 on every enterprise call
//
// "Opens": PUT …/access makes the caller a member of the enterprise's organization, so it opens
// in the studio. The screens and the server use these rules; the server alone decides.
import { formError, type FormError } from './form-errors.ts';
import { allPermissions, showsEnterprises, type PermissionEntry } from './permissions.ts';

export const ENTERPRISE_DISPLAY_NAME_MAX_LENGTH = 100;
export const ENTERPRISE_PLAN_LABEL_MAX_LENGTH = 50;
export const ENTERPRISE_NOTES_MAX_LENGTH = 2000;
/** A filter of the enterprise lists is at most this long (longer matches nothing anyway). */
export const ENTERPRISE_FILTER_MAX_LENGTH = 200;

/** Who may use the enterprise calls at all: the Enterprises menu item's rule (section 6). */
export function mayUseEnterprises(user: { isAdmin: boolean; hasResellerAccess: boolean }): boolean {
  return showsEnterprises({ isAdmin: user.isAdmin, isAdminOrSupport: false, hasResellerAccess: user.hasResellerAccess, sessionType: 'activated' });
}

/** Whether the caller sees one enterprise: admins every one, a reseller those it is a user of. */
export function seesEnterprise(user: { isAdmin: boolean; hasResellerAccess: boolean }, isEnterpriseUser: boolean): boolean {
  return user.isAdmin || (user.hasResellerAccess && isEnterpriseUser);
}

/**
 * The membership PUT …/access gives: Organization scope with every flag. The staff member or
 * reseller opens the organization to set it up and to help its people, as its administrator would.
 */
export function enterpriseAccessPermissions(organizationId: string): PermissionEntry[] {
  return [{ ObjectType: 'Organization', ObjectId: organizationId, Permissions: allPermissions() }];
}

// ── An enterprise organization's fields (PATCH) ─────────────────────────────────────────────

export const ENTERPRISE_ORGANIZATION_FIELDS = ['DisplayName', 'PlanLabel', 'Notes'] as const;
export type EnterpriseOrganizationField = (typeof ENTERPRISE_ORGANIZATION_FIELDS)[number];
export type EnterpriseOrganizationEdit = { [F in EnterpriseOrganizationField]?: string | null | undefined };

const MAX_LENGTH: Record<EnterpriseOrganizationField, number> = {
  DisplayName: ENTERPRISE_DISPLAY_NAME_MAX_LENGTH,
  PlanLabel: ENTERPRISE_PLAN_LABEL_MAX_LENGTH,
  Notes: ENTERPRISE_NOTES_MAX_LENGTH,
};

/** A field's value as kept: trimmed (notes keep their inner lines), and nothing as null. */
export function cleanEnterpriseText(value: string | null | undefined): string | null {
  const text = value?.trim() ?? '';
  return text === '' ? null : text;
}

/** Each sent field's problem, by field: every one of them is optional and may be cleared (null or ""). */
export function validateEnterpriseOrganizationEdit(edit: EnterpriseOrganizationEdit): Array<{ field: EnterpriseOrganizationField; error: FormError }> {
  const problems: Array<{ field: EnterpriseOrganizationField; error: FormError }> = [];
  for (const field of ENTERPRISE_ORGANIZATION_FIELDS) {
    const value = cleanEnterpriseText(edit[field]);
    if (value === null) continue;
    const max = MAX_LENGTH[field];
    // Control characters other than a notes' line breaks and tabs: a paste from elsewhere that no one means.
    const control = field === 'Notes' ? /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/ : /[\u0000-\u001f\u007f]/;
    if (control.test(value)) problems.push({ field, error: formError('invalid') });
    else if ([...value].length > max) problems.push({ field, error: formError('tooLong', 'domain_text_too_long', { max }) });
  }
  return problems;
}

// ── Sales codes ─────────────────────────────────────────────────────────────────────────────

/** A sales code as handed out: letters, digits and single dashes, 3 to 40 characters. */
const SALES_CODE = /^[A-Za-z0-9]+(?:-[A-Za-z0-9]+)*$/;
export const SALES_CODE_MIN_LENGTH = 3;
export const SALES_CODE_MAX_LENGTH = 40;

export function isSalesCode(value: string): boolean {
  return value.length >= SALES_CODE_MIN_LENGTH && value.length <= SALES_CODE_MAX_LENGTH && SALES_CODE.test(value);
}

/** Codes are matched without regard to case: a customer types what they were told. */
export function salesCodeKey(name: string): string {
  return name.toUpperCase();
}

// ── The screens' addresses (section 2: /enterprises) ────────────────────────────────────────

export const enterprisesPath = () => '/enterprises';
export const enterprisePath = (enterpriseId: string) => `/enterprises/${enterpriseId}`;
export const enterpriseOrganizationPath = (enterpriseId: string, organizationId: string) => `/enterprises/${enterpriseId}/organizations/${organizationId}`;
