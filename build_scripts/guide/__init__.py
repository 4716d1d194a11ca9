"""The instructor's guide (``make guide``): one page per lab, generated from its module, never
typed. It states every answer key, so it is built on request into ``guide/`` (git-ignored) and
is neither linked from the student site nor deployed with it."""
