// Route parameters (section 2): each id must be a valid id of its kind; a missing parameter
// raises a missing-parameter error, an invalid id an invalid-id error naming the entity type.
import { isGuid } from '../domain/validators.ts';
import { useParams } from './router.ts';

export type IdParam = 'organizationId' | 'programId' | 'clipId' | 'playlistId' | 'recordingId' | 'networkId' | 'enterpriseId';
const ENTITY: Record<IdParam, string> = {
  organizationId: 'organization',
  programId: 'program',
  clipId: 'clip',
  playlistId: 'playlist',
  recordingId: 'recording',
  networkId: 'network',
  enterpriseId: 'enterprise',
};

export class RouteParamError extends Error {
  constructor(
    readonly reason: 'missing' | 'invalid',
    readonly parameter: IdParam,
    readonly entity: string,
    readonly value: string | null,
  ) {
    super(reason === 'missing' ? `missing route parameter ${parameter}` : `invalid ${entity} id "${value ?? ''}"`);
    this.name = 'RouteParamError';
  }
}

export function readIdParams<K extends IdParam>(params: Record<string, string | undefined>, keys: readonly K[]): Record<K, string> {
  const out = {} as Record<K, string>;
  for (const key of keys) {
    const value = params[key];
    if (value === undefined || value === '') throw new RouteParamError('missing', key, ENTITY[key], null);
    if (!isGuid(value)) throw new RouteParamError('invalid', key, ENTITY[key], value);
    out[key] = value.toLowerCase();
  }
  return out;
}

export function useIdParams<K extends IdParam>(...keys: K[]): Record<K, string> {
  return readIdParams(useParams() as Record<string, string | undefined>, keys);
}
