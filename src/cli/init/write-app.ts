import { randomBytes } from "node:crypto";
import { mkdir, readdir, rename, rm, writeFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { TetherError, isTetherError } from "../../protocol/index.ts";
import { inspectTarget } from "./target-folder.ts";

/** One file of the new app. */
export interface AppFile {
  /** Relative to the app's folder, with / between folders. */
  path: string;
  content: string | Buffer;
}

/**
 * Writes a new app's files into `target`, all or nothing, through a hidden staging folder.
 *
 * A folder that is there already (it must be empty) is kept, since a shell may stand in it: the
 * files are staged inside it and moved up, so they never cross from another filesystem (the folder
 * may be a mount point: a Docker bind mount, a devcontainer) and its parent need not be writable.
 * A new folder is staged beside where it goes, folders above it made as needed, and renamed into
 * place. Either way the folder gets the usual mode (0777 less the umask), as mkdir gives.
 *
 * When `signal` aborts, the write stops at the next file, what was written is taken back, and the
 * signal's reason is thrown. A failure of the filesystem is a `config_invalid` saying what failed.
 */
export async function writeApp(target: string, files: AppFile[], signal?: AbortSignal): Promise<void> {
  try {
    if ((await inspectTarget(target)) === "empty") await fillEmptyFolder(target, files, signal);
    else await makeFolder(target, files, signal);
  } catch (error) {
    throw signal?.aborted || isTetherError(error) || !isFileSystemError(error) ? error : cannotWrite(target, error);
  }
}

/** A new folder: staged beside where it goes (the parent made if need be), then renamed into place. */
async function makeFolder(target: string, files: AppFile[], signal: AbortSignal | undefined): Promise<void> {
  const madeAbove = await mkdir(dirname(target), { recursive: true });
  let staging: string | undefined;
  try {
    staging = await makeStagingFolder(dirname(target), `.${basename(target)}-`);
    await writeFiles(staging, files, signal);
    await rename(staging, target);
  } catch (error) {
    if (staging) await removeQuietly(staging);
    if (madeAbove) await removeQuietly(madeAbove);
    throw error;
  }
}

/** A folder that is there and empty: staged inside it, each entry moved up, the staging folder removed. */
async function fillEmptyFolder(target: string, files: AppFile[], signal: AbortSignal | undefined): Promise<void> {
  const staging = await makeStagingFolder(target, ".tether-init-");
  const moved: string[] = [];
  try {
    await writeFiles(staging, files, signal);
    for (const entry of await readdir(staging)) {
      signal?.throwIfAborted();
      await rename(join(staging, entry), join(target, entry));
      moved.push(entry);
    }
  } catch (error) {
    for (const entry of moved) await removeQuietly(join(target, entry));
    throw error;
  } finally {
    await removeQuietly(staging);
  }
}

async function writeFiles(folder: string, files: AppFile[], signal: AbortSignal | undefined): Promise<void> {
  for (const file of files) {
    signal?.throwIfAborted();
    await mkdir(dirname(join(folder, file.path)), { recursive: true });
    await writeFile(join(folder, file.path), file.content);
  }
  signal?.throwIfAborted();
}

/** A hidden folder of a unique name, made by mkdir (not mkdtemp, whose 0700 the app would keep). */
async function makeStagingFolder(parent: string, prefix: string): Promise<string> {
  const path = join(parent, `${prefix}${randomBytes(4).toString("hex")}`);
  await mkdir(path);
  return path;
}

/** Takes back what was written; the failure that led here is the one to report, not this one's. */
async function removeQuietly(path: string): Promise<void> {
  await rm(path, { recursive: true, force: true }).catch(() => undefined);
}

function isFileSystemError(error: unknown): error is NodeJS.ErrnoException {
  return error instanceof Error && typeof (error as NodeJS.ErrnoException).code === "string";
}

function cannotWrite(target: string, error: NodeJS.ErrnoException): TetherError {
  return new TetherError(
    "config_invalid",
    `Could not write the app into ${target} (${error.message}): check that you may write there and that the disk has room, or name another folder.`,
    { cause: error },
  );
}
