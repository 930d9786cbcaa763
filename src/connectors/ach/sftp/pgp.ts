import * as openpgp from 'openpgp';

/** Files to the bank encrypted to its key (armored, as banks ask), files from it decrypted with ours. */
export async function encryptForBank(content: Buffer, bankPublicKeyArmored: string): Promise<Buffer> {
  const encryptionKeys = await openpgp.readKey({ armoredKey: bankPublicKeyArmored });
  const message = await openpgp.createMessage({ binary: new Uint8Array(content) });
  const armored = await openpgp.encrypt({ message, encryptionKeys, format: 'armored' });
  return Buffer.from(armored as string);
}

/** True when the bytes are an OpenPGP message (armored, or a binary packet): what the bank encrypted. */
export function isPgpMessage(content: Buffer): boolean {
  if (content.subarray(0, 27).toString('latin1') === '-----BEGIN PGP MESSAGE-----') return true;
  // A binary message starts with a packet tag (bit 7 set) of a public-key encrypted session key (1) or similar.
  const first = content[0] ?? 0;
  return (first & 0x80) !== 0 && [1, 3].includes((first & 0x40 ? first & 0x3f : (first >> 2) & 0x0f) as number);
}

export async function decryptFromBank(content: Buffer, privateKeyArmored: string): Promise<Buffer> {
  const decryptionKeys = await openpgp.readPrivateKey({ armoredKey: privateKeyArmored });
  const text = content.subarray(0, 27).toString('latin1') === '-----BEGIN PGP MESSAGE-----';
  const message = text
    ? await openpgp.readMessage({ armoredMessage: content.toString('latin1') })
    : await openpgp.readMessage({ binaryMessage: new Uint8Array(content) });
  const { data } = await openpgp.decrypt({ message, decryptionKeys, format: 'binary' });
  return Buffer.from(data as Uint8Array);
}
