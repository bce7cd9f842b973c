// A double's exact bits, and their spelling as CPython's float.hex() spells them.
//
// JavaScript may quieten or canonicalise a NaN it handles as a number, so the bits are
// taken from the eight bytes themselves wherever the core wrote them, never from a number
// that travelled through JavaScript.

/** The 64 bits of a double, as an unsigned BigInt. */
export function bitsOf(value) {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, value, true);
  return view.getBigUint64(0, true);
}

/** The double whose 64 bits these are. */
export function fromBits(bits) {
  const view = new DataView(new ArrayBuffer(8));
  view.setBigUint64(0, BigInt.asUintN(64, BigInt(bits)), true);
  return view.getFloat64(0, true);
}

/** The 64 bits as 16 lowercase hex digits, most significant first ("3ff0000000000000" is 1.0). */
export function bitsHex(bits) {
  return BigInt.asUintN(64, BigInt(bits)).toString(16).padStart(16, "0");
}

const MANTISSA_MASK = (1n << 52n) - 1n;

/** CPython's float.hex() of the double with these bits: "0x1.e7851eb851eb8p+5", "-0x0.0p+0", "nan". */
export function hexOfBits(bits) {
  const b = BigInt.asUintN(64, BigInt(bits));
  const sign = b >> 63n ? "-" : "";
  const biased = Number((b >> 52n) & 0x7ffn);
  const mantissa = b & MANTISSA_MASK;
  if (biased === 0x7ff) return mantissa === 0n ? `${sign}inf` : "nan"; // CPython drops a NaN's sign
  const digits = mantissa.toString(16).padStart(13, "0");
  if (biased === 0) return mantissa === 0n ? `${sign}0x0.0p+0` : `${sign}0x0.${digits}p-1022`;
  const exponent = biased - 1023;
  return `${sign}0x1.${digits}p${exponent < 0 ? "-" : "+"}${Math.abs(exponent)}`;
}

/** CPython's float.hex() of a number. */
export function floatHex(value) {
  if (typeof value !== "number") throw new TypeError(`floatHex: expected a number, got ${typeof value}`);
  return hexOfBits(bitsOf(value));
}
