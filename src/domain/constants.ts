// Every business constant of specification section 9 (and the numbers of sections 3–6 that it
// repeats), named once. Screens, workers and the server import these; no second copy of a limit.

/** The build number shown on the 'Version:' line of the help menu (section 2). */
export const BUILD_VERSION = '1.0.2625';

// ── Validation limits (sections 5 and 9) ────────────────────────────────────────────────────
export const MIN_YEAR = 1753;
export const TIME_HOURS_MAX = 99;
export const DOMAIN_MAX_LENGTH = 253;
export const DOMAIN_LABEL_MAX_LENGTH = 63;
export const PAGE_SIZE_MIN = 1;
export const PAGE_SIZE_MAX = 2500;
export const MAX_INT = 2147483647;
/** The smallest signed 32-bit integer: the symmetric bound of MAX_INT for signed input. */
export const MIN_INT = -2147483648;

// The spec leaves these lengths to callers ("supplied by callers: not shown"); these are ours.
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;
export const NAME_MAX_LENGTH = 100;
export const TITLE_MIN_LENGTH = 1;
export const TITLE_MAX_LENGTH = 255;
export const SLUG_MIN_LENGTH = 1;
export const SLUG_MAX_LENGTH = 100;
export const URL_MIN_LENGTH = 4;
export const URL_MAX_LENGTH = 2048;
export const DESCRIPTION_MAX_LENGTH = 10_000;
/** Our cap for uploaded audio; the spec names the rule (fileTooLarge), not the size. */
export const AUDIO_FILE_MAX_BYTES = 2 * 1024 * 1024 * 1024;

// ── Lists and paging ────────────────────────────────────────────────────────────────────────
export const FULL_LIST_PAGE_SIZE = 2500;
export const ID_CHUNK_SIZE = 500;
export const FIRST_PAGE = 1;

// ── Long-operation polling (section 4) ──────────────────────────────────────────────────────
export const POLL_INTERVAL_MS = 1500;
export const POLL_TIMEOUT_MS = 90_000;

// ── Contact and confirmation dialogs ────────────────────────────────────────────────────────
export const CONTACT_ADDITIONAL_INFO_MAX = 2048;
export const CONTACT_BROWSER_LOCALE_MAX = 255;
export const CONTACT_ENQUIRY_ROWS = 6;
export const CONFIRMATION_WORD = 'DELETE';

// ── Toast, tooltip, menu ────────────────────────────────────────────────────────────────────
export const TOAST_DURATION_MS = 5000;
export const TOAST_SWIPE_THRESHOLD_PX = 50;
export const TOAST_HOTKEY = 'F8';
export const TOOLTIP_DELAY_MS = 700;
export const TOOLTIP_SKIP_DELAY_MS = 300;
export const TOOLTIP_MAX_WIDTH = 200;
export const MENU_DELAY_MS = 175;

// ── Loading bar (section 4) ─────────────────────────────────────────────────────────────────
export const LOADING_BAR_DELAY_MS = 100;
export const LOADING_BAR_INTERVAL_MS = 500;
export const LOADING_BAR_START = 0.5;
export const LOADING_BAR_STEP = 0.2;
export const LOADING_BAR_FADE_MS = 300;

// ── Forms ───────────────────────────────────────────────────────────────────────────────────
export const FORM_SCROLL_TO_ERROR_TIMEOUT_MS = 4000;
export const FORM_SHAKE_ITERATIONS = 2;
export const FORM_SHAKE_DISTANCE_PX = 4;
export const FORM_SHAKE_DURATION_MS = 275;

// ── Layout ──────────────────────────────────────────────────────────────────────────────────
export const ORGANIZATION_MENU_WIDTH_PX = 320;
export const HELP_MENU_WIDTH_PX = 180;
export const MENU_ITEM_MAX_WIDTH_PX = 250;
export const DROPDOWN_MAX_HEIGHT_PX = 320;
export const DROPDOWN_MAX_WIDTH_PX = 400;
export const DROPDOWN_PAGE_STEP = 10;
export const CONTENT_WIDTH_NARROW_PX = 560;
export const CONTENT_WIDTH_WIDE_PX = 1400;
export const DIALOG_WIDTHS = { narrow: '640px', medium: '920px', wide: '1100px', full: '100%' } as const;
export const CONTACT_DIALOG_WIDTHS = { narrow: '420px', medium: '640px' } as const;
export const NESTED_DIALOG_OFFSET_REM = 1;

// ── Browser-translation warning ─────────────────────────────────────────────────────────────
export const TRANSLATION_WARNING_REAPPEAR_MONTHS = 1;

// ── Relative time buckets: each unit is used while the value stays below its limit ─────────
export const RELATIVE_TIME_LIMITS = { second: 60, minute: 60, hour: 24, day: 30, month: 12 } as const;

// ── Client data caching (section 9: minutes unless stated) ──────────────────────────────────
const MINUTE_MS = 60_000;
export const CACHE_DURATIONS_MS = {
  default: 5 * MINUTE_MS,
  aiSuggestions: 10 * MINUTE_MS,
  aiSuggestionsByType: 60 * MINUTE_MS,
  xsrfToken: 24 * 60 * MINUTE_MS,
  organizations: 5 * MINUTE_MS,
  userProfiles: 5 * MINUTE_MS,
  session: 60 * MINUTE_MS,
  apiKeys: 5 * MINUTE_MS,
  analyticsGlance: 10 * MINUTE_MS,
  referenceData: 60 * MINUTE_MS,
  programs: 5 * MINUTE_MS,
  networks: 5 * MINUTE_MS,
  members: 5 * MINUTE_MS,
  flights: 5 * MINUTE_MS,
  config: 10 * MINUTE_MS,
  subscription: 10 * MINUTE_MS,
} as const;
export type CacheKind = keyof typeof CACHE_DURATIONS_MS;

// ── Client retry policy ─────────────────────────────────────────────────────────────────────
export const RETRY_COUNT = 3;
export const RETRY_BASE_DELAY_MS = 1000;
export const RETRY_MAX_DELAY_MS = 30_000;

// ── Image size variants (section 3), in pixels, square ──────────────────────────────────────
export const IMAGE_VARIANTS = { thumbnail: 64, small: 256, medium: 600, large: 3000 } as const;

// ── Formats (section 3) ─────────────────────────────────────────────────────────────────────
export const AUDIO_EXTENSIONS = ['m4a', 'mp3', 'mp4', 'aac', 'wav', 'flac', 'aif', 'aiff'] as const;
export const IMAGE_EXTENSIONS = ['jpeg', 'jpg', 'png'] as const;
