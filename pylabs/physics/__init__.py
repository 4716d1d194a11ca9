"""Pure physics for the labs: cited constants and closed-form models in SI units.

Submodules (import the one you need; nothing is imported eagerly here):

- ``constants``   the one registry of cited hardware, model and published-run facts
- ``collectives`` all-reduce and reduce-scatter costs (alpha-beta model), busbw
- ``training``    6ND compute, DP comm/compute ratio, ZeRO and activation memory, MFU
- ``pipeline``    pipeline bubble, microbatch count, tensor-parallel communication
- ``amdahl``      Amdahl's law for one or several components
- ``scaling``     time to train, strong and weak scaling speedup
- ``economics``   on-demand, reserved and on-prem total cost of ownership
- ``reliability`` cluster MTBF, checkpoint write and stall, Young/Daly interval, goodput

Every function takes and returns SI units (bytes, seconds, bytes/s per direction,
FLOP, FLOP/s, watts, US dollars, fractions 0-1) and uses only the standard library.
"""
