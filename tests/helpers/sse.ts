// Reading a server-sent events stream in a test: the text so far once it holds what is awaited,
// or an error that shows what came (the stream ended, or nothing came in time).

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function readUntil(reader: ReadableStreamDefaultReader<Uint8Array>, needle: string, timeoutMs = 15_000): Promise<string> {
  const decoder = new TextDecoder();
  let text = '';
  const until = Date.now() + timeoutMs;
  while (!text.includes(needle)) {
    const left = until - Date.now();
    if (left <= 0) throw new Error(`no "${needle}" in ${timeoutMs} ms; read:\n${text}`);
    const next = await Promise.race([reader.read(), sleep(left).then(() => null)]);
    if (next === null) continue;
    if (next.done) throw new Error(`the stream ended before "${needle}"; read:\n${text}`);
    text += decoder.decode(next.value, { stream: true });
  }
  return text;
}
