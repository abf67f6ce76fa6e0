// An S3-compatible server for the tests of the S3 blob store: s3rver (pure JS, objects in a temp
// folder) on 127.0.0.1, one bucket, and the client the server would make for it from the
// CASTAWAY_S3_* variables (path-style, fixed keys).
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateBucketCommand, type S3Client } from '@aws-sdk/client-s3';
import { s3ClientFromEnv } from '../../sync-server/audio/s3-blob-store.ts';

export type S3Server = { endpoint: string; client: S3Client; bucket: string; close(): Promise<void> };

/** The part of s3rver used here (it ships no type declarations). */
type S3rver = { run(): Promise<AddressInfo>; close(): Promise<void> };
const S3rver = createRequire(import.meta.url)('s3rver') as new (options: { port: number; address: string; silent: boolean; directory: string }) => S3rver;

export async function startS3Server(): Promise<S3Server> {
  const directory = await mkdtemp(join(tmpdir(), 'castaway-s3-'));
  const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory });
  let port: number;
  try {
    ({ port } = await server.run());
  } catch (e) {
    await rm(directory, { recursive: true, force: true });
    throw e;
  }
  const endpoint = `http://127.0.0.1:${port}`;
  // s3rver accepts any signature made with its one account's keys.
  const client = s3ClientFromEnv({ CASTAWAY_S3_ENDPOINT: endpoint, CASTAWAY_S3_ACCESS_KEY_ID: 'S3RVER', CASTAWAY_S3_SECRET_ACCESS_KEY: 'S3RVER' });
  const bucket = 'castaway-test'; // S3 bucket names have 3 characters or more
  const close = async () => {
    client.destroy();
    await server.close();
    await rm(directory, { recursive: true, force: true });
  };
  try {
    await client.send(new CreateBucketCommand({ Bucket: bucket }));
  } catch (e) {
    await close();
    throw e;
  }
  return { endpoint, client, bucket, close };
}
