"""V2-05's Act I network between nodes: the scenario's DGX rails, one the student picks, or the
cluster the student built in V2-02, read from the Design Ledger, and the note that says which."""

from __future__ import annotations

from pylabs.framework import State, callout, fmt, prose
from pylabs.labs.vol2.v2_05_model import DEFAULT_FABRIC
from pylabs.physics import constants as C

NICS = {"hdr": ("InfiniBand HDR 200G", C.IB_HDR_BW), "ndr": ("InfiniBand NDR 400G", C.IB_NDR_BW)}
# the ledger's network last: without a V2-02 entry it is the scenario's, so the scenario's neighbour in
# the list is a network that changes the numbers (review: the next option changed nothing on screen)
FABRICS = {f"{DEFAULT_FABRIC[0]}ndr": f"{DEFAULT_FABRIC[0]} × NDR 400G per node (DGX rails, the scenario)",
           "4ndr": "4 × NDR 400G per node",
           "1ndr": "1 × NDR 400G per node", "1hdr": "1 × HDR 200G per node",
           "v2_02": "From your V2-02 ledger"}


def resolve_fabric(s: State) -> tuple[int, str, str]:
    """(NICs per node, NIC type, where it came from) for Act I."""
    choice = s["a1_fabric"]
    if choice != "v2_02":
        return int(choice[:-3]), choice[-3:], "chosen"
    nics, nic = s.earlier_control("v2_02", "a2_nics"), s.earlier_control("v2_02", "a2_nic")
    if nics is None and nic is None:
        return DEFAULT_FABRIC + ("default",)
    nics_ok = str(nics) in ("1", "2", "4", "8")
    return (int(nics) if nics_ok else DEFAULT_FABRIC[0]), (nic if nic in NICS else "ndr"), "ledger"


def fabric_text(nics: int, nic: str) -> str:
    return f"{nics} × {NICS[nic][0]} per node ({fmt(nics * NICS[nic][1], 'GB/s')} out of each node)"


def ledger_note(s: State) -> list:
    """Where Act I's network comes from; the question's scenario always has the DGX rails."""
    nics, nic, source = resolve_fabric(s)
    scenario = f"the question's scenario has {DEFAULT_FABRIC[0]} NDR rails per node"
    if source == "ledger":
        return [callout("info", "From your V2-02 ledger",
                        prose(f"From your V2-02 ledger: {fabric_text(nics, nic)}; {scenario}. Pick another "
                              "network above to compare."))]
    if source == "default":
        return [callout("info", "Network",
                        prose(f"No V2-02 entry in your ledger: using {DEFAULT_FABRIC[0]} NDR rails per node, "
                              "as in the question's scenario."))]
    nics_then, nic_then = s.earlier_control("v2_02", "a2_nics"), s.earlier_control("v2_02", "a2_nic")
    if nics_then is not None or nic_then is not None:
        return [callout("info", "Your V2-02 network",
                        prose("Your V2-02 ledger holds another cluster: pick “From your V2-02 ledger” above to "
                              f"run this data-parallel job on it ({scenario})."))]
    return []
