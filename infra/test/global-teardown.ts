export default async function globalTeardown(): Promise<void> {
  const server = (globalThis as { __skywardPg?: { stop(): Promise<void> } }).__skywardPg;
  await server?.stop();
}
