"""The tools: the cardc command and what it runs (play, scenarios, fuzzing, replay, tournaments).

They sit on top of the compiler and the runtime; nothing in compiler/ or runtime/ imports them.
"""
