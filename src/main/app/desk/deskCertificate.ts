import { generateKeyPairSync, X509Certificate } from 'node:crypto';
import fs from 'node:fs';
import { isIP } from 'node:net';
import path from 'node:path';

/**
 * The desk's own TLS certificate, for listening off loopback: self-signed, made once and kept in
 * `<dataDir>/desk/` (the key owner-only), so its fingerprint stays the same and runners that pinned
 * it (`--desk-fingerprint`) keep connecting. No authority vouches for it; the pin is the trust.
 */
export interface DeskCertificate {
  cert: string;
  key: string;
  /** SHA-256 of the certificate, as `AB:CD:…` (what node's `fingerprint256` says and `--desk-fingerprint` takes). */
  fingerprint: string;
}

const YEARS_VALID = 10;

/** The certificate kept for this data folder, made now (for `host`) if there is none yet. */
export async function deskCertificate(dataDir: string, host: string): Promise<DeskCertificate> {
  const folder = path.join(dataDir, 'desk');
  const certFile = path.join(folder, 'desk-cert.pem');
  const keyFile = path.join(folder, 'desk-key.pem');
  if (fs.existsSync(certFile) && fs.existsSync(keyFile)) {
    const cert = fs.readFileSync(certFile, 'utf8');
    const x509 = new X509Certificate(cert);
    // A certificate made for another address is made again: a runner checks the pin, not the name, but the
    // fingerprint shown must be of the certificate served.
    if (x509.checkHost(host) !== undefined || x509.checkIP(host) !== undefined) {
      return { cert, key: fs.readFileSync(keyFile, 'utf8'), fingerprint: x509.fingerprint256 };
    }
  }
  const made = await makeCertificate(host);
  fs.mkdirSync(folder, { recursive: true, mode: 0o700 });
  fs.writeFileSync(keyFile, made.key, { mode: 0o600 });
  fs.writeFileSync(certFile, made.cert, { mode: 0o644 });
  return made;
}

async function makeCertificate(host: string): Promise<DeskCertificate> {
  // node-forge builds and signs the certificate (node's crypto has no X.509 writer); node makes the key.
  const { pki, md } = (await import('node-forge')).default;
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const keyPem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const certificate = pki.createCertificate();
  certificate.publicKey = pki.publicKeyFromPem(publicKey.export({ type: 'spki', format: 'pem' }).toString());
  certificate.serialNumber = `01${Buffer.from(globalThis.crypto.getRandomValues(new Uint8Array(15))).toString('hex')}`;
  const now = new Date();
  certificate.validity.notBefore = new Date(now.getTime() - 60_000);
  certificate.validity.notAfter = new Date(now.getTime() + YEARS_VALID * 365 * 24 * 3600 * 1000);
  const name = [{ name: 'commonName', value: `Tether desk ${host}` }];
  certificate.setSubject(name);
  certificate.setIssuer(name);
  const altNames = [
    isIP(host) ? { type: 7, ip: host } : { type: 2, value: host },
    { type: 2, value: 'localhost' },
    { type: 7, ip: '127.0.0.1' },
  ];
  certificate.setExtensions([
    { name: 'basicConstraints', cA: false },
    { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
    { name: 'extKeyUsage', serverAuth: true },
    { name: 'subjectAltName', altNames },
  ]);
  certificate.sign(pki.privateKeyFromPem(keyPem), md.sha256.create());
  const cert = pki.certificateToPem(certificate);
  return { cert, key: keyPem, fingerprint: new X509Certificate(cert).fingerprint256 };
}
