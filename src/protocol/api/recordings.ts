// Recordings and their annotations, specification section 7 "Recordings and recording agents".
import type { RouteConfig } from '@hono/zod-openapi';
import * as z from 'zod';
import { RecordingState } from '../entities.ts';
import { Annotation, AnnotationCreate, Recording, RecordingPatch } from './schemas.ts';
import { BoolQuery, createErrors, enumListQuery, errors, idParams, IdListQuery, IfMatchHeader, jsonBody, jsonContent, noContent, PagedOf, PagingQuery, preconditionFailed, writeErrors } from './common.ts';

const tags = ['Recordings'];
const RecordingParams = idParams('recordingId');

export const listRecordings = {
  method: 'get',
  path: '/v1/recordings',
  tags,
  summary: 'Recordings of the programs the caller has content access to, newest first',
  request: { query: z.object({ ...PagingQuery, recordingIds: IdListQuery, includeDeleted: BoolQuery }) },
  responses: { 200: jsonContent(PagedOf(Recording), 'A page of recordings'), ...errors },
} as const satisfies RouteConfig;

export const getRecording = {
  method: 'get',
  path: '/v1/recordings/{recordingId}',
  tags,
  summary: 'One recording',
  request: { params: RecordingParams },
  responses: { 200: jsonContent(Recording, 'The recording'), ...errors },
} as const satisfies RouteConfig;

export const listProgramRecordings = {
  method: 'get',
  path: '/v1/programs/{programId}/recordings',
  tags,
  summary: 'The program’s recordings, newest first, optionally of some states',
  request: { params: idParams('programId'), query: z.object({ ...PagingQuery, recordingIds: IdListQuery, includeDeleted: BoolQuery, status: enumListQuery(RecordingState.options) }) },
  responses: { 200: jsonContent(PagedOf(Recording), 'A page of recordings'), ...errors },
} as const satisfies RouteConfig;

export const updateRecording = {
  method: 'patch',
  path: '/v1/recordings/{recordingId}',
  tags,
  summary: 'Changes a recording (mutation recording.update)',
  request: { params: RecordingParams, headers: IfMatchHeader, body: jsonBody(RecordingPatch) },
  responses: { 200: jsonContent(Recording, 'The recording after the change'), ...writeErrors, ...preconditionFailed(Recording) },
} as const satisfies RouteConfig;

export const deleteRecording = {
  method: 'delete',
  path: '/v1/recordings/{recordingId}',
  tags,
  summary: 'Deletes a recording (mutation recording.delete)',
  request: { params: RecordingParams, headers: IfMatchHeader },
  responses: { 204: noContent, ...errors, ...preconditionFailed(Recording) },
} as const satisfies RouteConfig;

export const listAnnotations = {
  method: 'get',
  path: '/v1/recordings/{recordingId}/annotations',
  tags,
  summary: 'The recording’s annotations, by offset',
  request: { params: RecordingParams, query: z.object({ ...PagingQuery, includeDeleted: BoolQuery }) },
  responses: { 200: jsonContent(PagedOf(Annotation), 'A page of annotations'), ...errors },
} as const satisfies RouteConfig;

export const addAnnotation = {
  method: 'post',
  path: '/v1/recordings/{recordingId}/annotations',
  tags,
  summary: 'Adds an annotation (mutation annotation.add)',
  request: { params: RecordingParams, body: jsonBody(AnnotationCreate) },
  responses: { 201: jsonContent(Annotation, 'The new annotation'), ...createErrors },
} as const satisfies RouteConfig;

export const deleteAnnotation = {
  method: 'delete',
  path: '/v1/recordings/{recordingId}/annotations/{annotationId}',
  tags,
  summary: 'Deletes an annotation (mutation annotation.delete)',
  request: { params: idParams('recordingId', 'annotationId'), headers: IfMatchHeader },
  responses: { 204: noContent, ...errors, ...preconditionFailed(Annotation) },
} as const satisfies RouteConfig;
