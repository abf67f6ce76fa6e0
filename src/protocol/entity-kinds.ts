// The one registry of synced entity kinds. Everything that lists the kinds the device keeps is
// derived from here: the sync wire's entity names, the local tables, the server's tables and
// columns, the kind its revisions are recorded under, and who may read a row (section 6). Adding a
// synced entity is an entry here, a migration for its table, and a Dexie version for its indexes.
//
// Read rules (the same for the REST reads, the pull and the access guard; src/domain/access.ts):
//   organization: a member of it;
//   network:      any flag covering the network, or a visible program in it;
//   program:      any flag covering the program (its own scope, its network's, the organization's);
//   content:      HasContentAccess on the row's program (playlists, clips, recordings);
//   child:        content access on the program of the parent row (annotations → their recording).

/** A column of the server table: the wire field it holds and its SQL type. Fields not listed are
 * kept in the row's `data` jsonb column. */
export type ColumnType = 'text' | 'uuid' | 'boolean' | 'jsonb';

export type ReadRule =
  | { kind: 'organization' }
  | { kind: 'network' }
  | { kind: 'program' }
  | { kind: 'content'; programField: 'ProgramId' }
  | { kind: 'child'; parent: 'recordings'; parentField: 'RecordingId' };

export type EntityKind = {
  /** The kind's name in revisions, errors and the API's own words ('clip'). */
  readonly kind: string;
  /** The server's table. */
  readonly table: string;
  /** Wire field → [column, type] of the fields that are real columns (filtered, joined, unique). */
  readonly columns: Readonly<Record<string, readonly [string, ColumnType]>>;
  readonly read: ReadRule;
};

export const ENTITY_KINDS = {
  organizations: {
    kind: 'organization',
    table: 'organizations',
    columns: { Name: ['name', 'text'], IsDemoOrganization: ['is_demo', 'boolean'], Provider: ['provider', 'text'] },
    read: { kind: 'organization' },
  },
  networks: { kind: 'network', table: 'networks', columns: { Name: ['name', 'text'] }, read: { kind: 'network' } },
  programs: {
    kind: 'program',
    table: 'programs',
    columns: { Name: ['name', 'text'], NetworkId: ['network_id', 'uuid'], Slug: ['slug', 'text'] },
    read: { kind: 'program' },
  },
  playlists: {
    kind: 'playlist',
    table: 'playlists',
    columns: {
      ProgramId: ['program_id', 'uuid'],
      Title: ['title', 'text'],
      Slug: ['slug', 'text'],
      Visibility: ['visibility', 'text'],
      ClipIds: ['clip_ids', 'jsonb'],
    },
    read: { kind: 'content', programField: 'ProgramId' },
  },
  clips: {
    kind: 'clip',
    table: 'clips',
    columns: {
      ProgramId: ['program_id', 'uuid'],
      Title: ['title', 'text'],
      Slug: ['slug', 'text'],
      State: ['state', 'text'],
      PublishState: ['publish_state', 'text'],
      Visibility: ['visibility', 'text'],
    },
    read: { kind: 'content', programField: 'ProgramId' },
  },
  recordings: {
    kind: 'recording',
    table: 'recordings',
    columns: { ProgramId: ['program_id', 'uuid'], Title: ['title', 'text'], State: ['state', 'text'] },
    read: { kind: 'content', programField: 'ProgramId' },
  },
  annotations: {
    kind: 'annotation',
    table: 'annotations',
    columns: { RecordingId: ['recording_id', 'uuid'] },
    read: { kind: 'child', parent: 'recordings', parentField: 'RecordingId' },
  },
} as const satisfies Record<string, EntityKind>;

/** The wire name of a synced kind: also its local table's name ('clips'). */
export type SyncEntity = keyof typeof ENTITY_KINDS;
/** The kind's own name ('clip'): revisions, the server's row functions. */
export type EntityName = (typeof ENTITY_KINDS)[SyncEntity]['kind'];

/** Every synced kind, parents before children (the order pulls and rebuilds go in). */
export const SYNC_ENTITIES = Object.keys(ENTITY_KINDS) as SyncEntity[];

/** Wire name → kind name, and back. */
export const KIND_OF = Object.fromEntries(SYNC_ENTITIES.map((e) => [e, ENTITY_KINDS[e].kind])) as { [E in SyncEntity]: (typeof ENTITY_KINDS)[E]['kind'] };
export const SYNC_ENTITY_OF = Object.fromEntries(SYNC_ENTITIES.map((e) => [ENTITY_KINDS[e].kind, e])) as Record<EntityName, SyncEntity>;
