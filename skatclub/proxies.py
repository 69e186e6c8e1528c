"""Which peers are our own proxies, and the client address they forward.

Every limit reads ``REMOTE_ADDR``. Behind a proxy that is the proxy's address for everyone,
so skatclub.middleware.ProxyHeadersMiddleware rewrites it from ``X-Forwarded-For`` — but only
for a request that comes from an address in ``TRUSTED_PROXIES``: anybody else could write
any address into that header. Pure functions, no Django: gunicorn's configuration
(skatclub/gunicorn_conf.py) reads the same setting with them.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def parse_networks(raw: str) -> list[Network]:
    """``"127.0.0.1, 10.0.0.0/8, ::1"`` → networks. A bad entry raises ValueError naming it
    (a host address with a prefix, ``10.0.0.1/8``, is refused, as gunicorn refuses it)."""
    networks = []
    for item in (part.strip() for part in raw.split(",")):
        if not item:
            continue
        try:
            networks.append(ipaddress.ip_network(item))
        except ValueError as err:
            raise ValueError(f"TRUSTED_PROXIES: {item!r} is not an address or network "
                             f"({err})") from None
    return networks


def _address(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    text = text.strip()
    if text.startswith("[") and "]" in text:  # [2001:db8::1]:443
        text = text[1:text.index("]")]
    elif text.count(":") == 1:  # 192.0.2.1:443
        text = text.split(":")[0]
    try:
        address = ipaddress.ip_address(text)
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped:
        return address.ipv4_mapped
    return address


def is_trusted(peer: str, networks: Iterable[Network]) -> bool:
    address = _address(peer)
    return address is not None and any(address in network for network in networks)


def forwarded_client(forwarded_for: str, networks: list[Network]) -> str | None:
    """The client address in an ``X-Forwarded-For`` chain that reached us through trusted
    proxies: the right-most hop that is not itself a trusted proxy (whatever stands left of
    it, the client wrote itself). None when the chain ends in something that is no address.
    A chain of trusted proxies only gives its left-most one."""
    hops = [hop for hop in (h.strip() for h in forwarded_for.split(",")) if hop]
    for hop in reversed(hops):
        address = _address(hop)
        if address is None:
            return None
        if not any(address in network for network in networks):
            return str(address)
    first = _address(hops[0]) if hops else None
    return str(first) if first is not None else None
