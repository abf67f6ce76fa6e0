// Reading a delivery's request body for the log: what it is about, and the JSON laid out. The body
// is what the server sent (Standard Webhooks: { id, type, timestamp, data }), kept as text; one
// that is not the shape expected is shown as it is, never refused.

/** The title or name of the row a delivery is about (data.row.Title, else .Name), or null. */
export function deliverySubject(requestBody: string): string | null {
  try {
    const body: unknown = JSON.parse(requestBody);
    const row = (body as { data?: { row?: Record<string, unknown> | null } } | null)?.data?.row;
    const name = row?.['Title'] ?? row?.['Name'];
    return typeof name === 'string' && name.trim() !== '' ? name : null;
  } catch {
    return null;
  }
}

/** JSON indented for reading; any other text as it came. */
export function pretty(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}
