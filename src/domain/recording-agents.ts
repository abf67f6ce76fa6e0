// Recording agents (specification section 7, "Recordings and recording agents"; issue 34): a
// machine in a studio (an encoder, a playout system) that pushes recordings to the studio. The one
// rule for the agent form and the server (src/protocol/api/recording-agents.ts runs it in the
// schema; the screen runs it before anything is sent).
//
// An agent has a name, to tell agents apart, and the programs it may push to: its token is a
// credential that reaches nothing else, so a leaked encoder password can at worst add recordings to
// those programs. At least one program: an agent that may push nowhere is of no use, and the form
// says so at the field rather than making one that every push is refused to.
import { formError, type FormError } from './form-errors.ts';
import { isGuid, validateName } from './validators.ts';

/** Programs one agent may push to: a station's whole schedule fits, a list past it is a mistake. */
export const RECORDING_AGENT_MAX_PROGRAMS = 100;

/** What every agent token starts with, so one pasted where it should not be is found (secret scanners). */
export const RECORDING_AGENT_TOKEN_PREFIX = 'crt_';

export function validateRecordingAgentName(value: string | null | undefined): FormError | null {
  return validateName(value);
}

/**
 * The programs an agent may push to: one at least, each a program id once. Whether each is a
 * program of the organization is the server's to say (it answers at ProgramIds.<i>).
 */
export function validateRecordingAgentPrograms(ids: readonly string[]): Array<{ index: number | null; error: FormError }> {
  if (ids.length === 0) return [{ index: null, error: formError('required', 'domain_recording_agent_programs_required') }];
  if (ids.length > RECORDING_AGENT_MAX_PROGRAMS) return [{ index: null, error: formError('tooLong', 'domain_recording_agent_programs_too_many', { max: RECORDING_AGENT_MAX_PROGRAMS }) }];
  const seen = new Set<string>();
  const out: Array<{ index: number | null; error: FormError }> = [];
  ids.forEach((id, index) => {
    if (!isGuid(id)) out.push({ index, error: formError('invalid', 'domain_guid_invalid', { value: id }) });
    else if (seen.has(id.toLowerCase())) out.push({ index, error: formError('invalid', 'domain_recording_agent_program_twice') });
    seen.add(id.toLowerCase());
  });
  return out;
}

/**
 * The agent's credentials from an Authorization header: HTTP Basic with the agent's id as the user
 * and its token as the password (what ffmpeg sends for http://id:token@host/…, and what Icecast
 * source clients send), or Bearer <token>. Null when there is none to read.
 */
export function readAgentCredentials(authorization: string | undefined): { agentId: string | null; token: string } | null {
  if (!authorization) return null;
  const bearer = /^Bearer\s+(\S+)$/i.exec(authorization.trim());
  if (bearer) return { agentId: null, token: bearer[1]! };
  const basic = /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(authorization.trim());
  if (!basic) return null;
  let decoded: string;
  try {
    decoded = atob(basic[1]!);
  } catch {
    return null;
  }
  const colon = decoded.indexOf(':');
  if (colon < 0) return null;
  const user = decodeURIComponent(decoded.slice(0, colon));
  return { agentId: isGuid(user) ? user.toLowerCase() : null, token: decodeURIComponent(decoded.slice(colon + 1)) };
}
