import { createServer } from 'net';

/** The ports handed out so far: a process given one may not have bound it yet. */
const handedOut = new Set<number>();

/**
 * A free TCP port on 127.0.0.1 (the kernel's choice; the suite binds it right after), never one
 * handed out before: the kernel can offer a port again while the process it was given to has not
 * bound it yet (two clusters' API servers once got the same port, and one of them could not listen).
 */
export async function freePort(): Promise<number> {
  for (;;) {
    const port = await kernelPort();
    if (!handedOut.has(port)) {
      handedOut.add(port);
      return port;
    }
  }
}

function kernelPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as any).port;
      srv.close(() => resolve(port));
    });
  });
}
