// The step view's whole state in the address's fragment (#1:...), so that a link reopens it
// exactly. Fragments never reach a server: the state stays in the browser unless the person
// shares the link themselves.
//
// Format, version 1: "#1:" then base64url (no padding) of the deflate-raw compressed UTF-8 of
// JSON {program, table, table_format, profile, python, example, and the answer mode's mode,
// completion, answer_protocol, answer_format, gold_answer, gold_program, gold_question,
// gold_scale, gold_answer_type}. Every field is optional text with a default, so a link made
// before the answer mode existed reads as it did (mode "program"). A later, incompatible format
// takes another leading version, and this one keeps being read, so old links keep working.

export const STATE_VERSION = 1;
/** Longest fragment written: far below what browsers and chat tools keep of an address. */
export const FRAGMENT_LIMIT = 8000;
/** Longest fragment read (links written by any version stay far below it), and the most its state
 * may decompress to: a crafted link cannot make the page inflate megabytes of program. */
const READ_FRAGMENT_LIMIT = 4 * FRAGMENT_LIMIT;
const STATE_BYTES_LIMIT = 1 << 20;
const FIELDS = {
  program: "", table: "", table_format: "auto", profile: "official", python: "3.11", example: "",
  mode: "program", completion: "", answer_protocol: "finqa-answer/1", answer_format: "answer-line",
  gold_answer: "", gold_program: "", gold_question: "", gold_scale: "", gold_answer_type: "arithmetic",
};

/** `bytes` through a compression stream, at most `limit` bytes out (a RangeError past it). */
async function through(stream, bytes, limit = Infinity) {
  const reader = new Blob([bytes]).stream().pipeThrough(stream).getReader();
  const parts = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > limit) {
      await reader.cancel();
      throw new RangeError(`more than ${limit} bytes`);
    }
    parts.push(value);
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const part of parts) { out.set(part, at); at += part.length; }
  return out;
}

function base64url(bytes) {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

function fromBase64url(text) {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) throw new Error("the link's state is not base64url");
  const binary = atob(text.replaceAll("-", "+").replaceAll("_", "/"));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

/** Only the known fields, as text, with their defaults: what a link may set. */
export function cleanState(state) {
  const clean = {};
  for (const [name, fallback] of Object.entries(FIELDS)) {
    clean[name] = typeof state?.[name] === "string" ? state[name] : fallback;
  }
  return clean;
}

/** The fragment (with its "#") for a state. */
export async function encodeState(state) {
  // JSON.stringify writes a lone surrogate as an escape, so the JSON text is valid UTF-8 and exact
  const json = new TextEncoder().encode(JSON.stringify(cleanState(state)));
  return `#${STATE_VERSION}:${base64url(await through(new CompressionStream("deflate-raw"), json))}`;
}

/** The state a fragment holds; null for an address without one; throws a readable Error for a bad one. */
export async function decodeState(fragment) {
  const text = fragment.startsWith("#") ? fragment.slice(1) : fragment;
  if (text === "") return null;
  if (text.length > READ_FRAGMENT_LIMIT) {
    throw new Error(`this link's fragment is ${text.length} characters long, more than a playground link holds ` +
      `(${FRAGMENT_LIMIT} are written, ${READ_FRAGMENT_LIMIT} read)`);
  }
  const match = /^(\d+):(.*)$/s.exec(text);
  if (!match) throw new Error("this link's fragment is not a playground state");
  if (Number(match[1]) !== STATE_VERSION) {
    throw new Error(`this link was made by a newer playground (state version ${match[1]}; this page reads ${STATE_VERSION})`);
  }
  let json;
  try {
    json = new TextDecoder("utf-8", { fatal: true }).decode(
      await through(new DecompressionStream("deflate-raw"), fromBase64url(match[2]), STATE_BYTES_LIMIT));
  } catch (error) {
    if (error instanceof RangeError) {
      throw new Error(`this link's state unpacks to more than ${STATE_BYTES_LIMIT} bytes: not one the playground wrote`);
    }
    throw new Error("this link's state is damaged (it may have been cut short when it was copied)");
  }
  return cleanState(JSON.parse(json));
}
