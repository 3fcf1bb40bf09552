# The records of a zone file as dnspython reads them, in parseZoneFile's shape: name relative to the zone ("@" for
# its apex), type, TTL, and the value as the service takes it: content (host names absolute without the trailing
# dot, TXT strings joined) or data (the structured types, field names of the service's API), priority (MX, URI).
# Usage: python read.py <file> <origin>      -> a JSON list of records
#        python read.py - <origin>           -> the file on stdin; {"error": "..."} when dnspython refuses it
#        python read.py --many <origin>      -> a JSON list of zone texts on stdin; a JSON list of those results
import base64, json, sys
import dns.exception, dns.rdatatype, dns.zone
from dns.rdtypes import svcbbase

def host(n):
    t = n.to_text()
    return "." if t == "." else t.rstrip(".").lower()

def loc(r):
    out = {}
    for what, value, dirs in (("lat", r.latitude, "NS"), ("long", r.longitude, "EW")):
        d, m, s, ms, sign = value
        out.update({f"{what}_degrees": d, f"{what}_minutes": m, f"{what}_seconds": s + ms / 1000, f"{what}_direction": dirs[0] if sign > 0 else dirs[1]})
    out.update({"altitude": r.altitude / 100, "size": r.size / 100, "precision_horz": r.horizontal_precision / 100, "precision_vert": r.vertical_precision / 100})
    return out

def params(r):
    out = []
    for key, value in sorted(r.params.items()):
        k = svcbbase.key_to_text(key)
        if value is None or value.to_text() in ("", None):
            out.append(k)
        else:
            out.append(f'{k}="{value.to_text().strip(chr(34))}"')
    return " ".join(out)

def value(t, r):
    if t in ("A", "AAAA"): return {"content": r.address}
    if t in ("CNAME", "NS", "PTR"): return {"content": host(r.target)}
    if t == "MX": return {"content": host(r.exchange), "priority": r.preference}
    if t == "OPENPGPKEY": return {"content": base64.b64encode(r.key).decode()}
    if t == "TXT": return {"content": b"".join(r.strings).decode("utf-8", "replace")}
    if t == "SRV": return {"data": {"priority": r.priority, "weight": r.weight, "port": r.port, "target": host(r.target)}}
    if t == "CAA": return {"data": {"flags": r.flags, "tag": r.tag.decode(), "value": r.value.decode("utf-8", "replace")}}
    if t == "DS": return {"data": {"key_tag": r.key_tag, "algorithm": int(r.algorithm), "digest_type": r.digest_type, "digest": r.digest.hex()}}
    if t == "DNSKEY": return {"data": {"flags": r.flags, "protocol": r.protocol, "algorithm": int(r.algorithm), "public_key": base64.b64encode(r.key).decode()}}
    if t in ("HTTPS", "SVCB"): return {"data": {"priority": r.priority, "target": host(r.target), "value": params(r)}}
    if t in ("TLSA", "SMIMEA"): return {"data": {"usage": r.usage, "selector": r.selector, "matching_type": r.mtype, "certificate": r.cert.hex()}}
    if t == "SSHFP": return {"data": {"algorithm": r.algorithm, "type": r.fp_type, "fingerprint": r.fingerprint.hex()}}
    if t == "NAPTR": return {"data": {"order": r.order, "preference": r.preference, "flags": r.flags.decode(), "service": r.service.decode(), "regex": r.regexp.decode(), "replacement": host(r.replacement)}}
    if t == "CERT": return {"data": {"type": r.certificate_type, "key_tag": r.key_tag, "algorithm": int(r.algorithm), "certificate": base64.b64encode(r.certificate).decode()}}
    if t == "URI": return {"priority": r.priority, "data": {"weight": r.weight, "target": r.target.decode()}}
    if t == "LOC": return {"data": loc(r)}
    return {}

def records(text, origin):
    zone = dns.zone.from_text(text, origin=origin, relativize=False, check_origin=False)
    apex = zone.origin
    out = []
    for name, ttl, rdata in zone.iterate_rdatas():
        t = dns.rdatatype.to_text(rdata.rdtype)
        rel = "@" if name == apex else name.relativize(apex).to_text().lower()
        out.append({"type": t, "name": rel, "ttl": ttl, **value(t, rdata)})
    return out

def guarded(text, origin):
    try:
        return records(text, origin)
    except (dns.exception.DNSException, ValueError, UnicodeError, KeyError) as e:
        return {"error": f"{type(e).__name__}: {e}"}

def main():
    path, origin = sys.argv[1], sys.argv[2]
    if path == "--many":  # a JSON list of zone texts on stdin -> a JSON list of results
        print(json.dumps([guarded(t, origin) for t in json.load(sys.stdin)]))
    elif path == "-":
        print(json.dumps(guarded(sys.stdin.read(), origin)))
    else:
        with open(path, encoding="utf-8") as f:
            print(json.dumps(records(f.read(), origin)))

main()
