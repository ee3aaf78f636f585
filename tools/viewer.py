"""The game viewer: one self-contained HTML page that steps through a recorded game action by action.

A Recorder collects views (tools/views.py) while a game is played: after the set-up and after each
action of a card game (`cardc play --html`, `cardc replay --html`), after each action processing of an
automatic battle (the runtime's Battle.watch observer). write_page puts them into the page as JSON,
with the page's script and style inline, so the file opens anywhere without a server or the network.
"""

from __future__ import annotations

import json
from pathlib import Path

from compiler.files import write_atomic
from runtime import engine
from runtime.agents import describe_action
from runtime.battle.state import Battle
from runtime.engine import Action
from runtime.state import State
from tools.gallery import WEB, environment
from tools.views import Step, battle_step, game_step


class Recorder:
    """The steps of one game so far, each with the log lines it added."""

    def __init__(self) -> None:
        self.steps: list[Step] = []
        self.shown = 0  # how many log lines earlier steps hold

    def game(self, s: State, action: str) -> None:
        """Record a card game's state after `action` ('set-up' for the first step)."""
        self.steps.append(game_step(s, action, self.shown))
        self.shown = len(s.log)

    def battle(self, b: Battle, action: str = "") -> None:
        """Record an automatic battle after an action processing; the step is named by its 'acts' lines."""
        new = b.log[self.shown:]
        acts = [line.split(" ", 1)[1] for line in new if " acts: " in line]
        what = action or "; ".join(acts) or (new[-1].split(" ", 1)[-1] if new else "nothing happens")
        self.steps.append(battle_step(b, what, self.shown))
        self.shown = len(b.log)

    def watch(self, b: Battle, what: str, *_: object) -> None:
        """Observe a battle (Battle.watch): record it after each action processing; other events add no step."""
        if what == "processed":
            self.battle(b)


def record_actions(s: State, actions: list[Action], recorder: Recorder) -> str:
    """Apply recorded actions to a fresh game, recording each step; return why it stopped early ('' if not)."""
    recorder.game(s, "set-up")
    for action in actions:
        said = describe_action(s, action)
        try:
            engine.apply_action(s, action)
        except Exception as err:  # the failure a replay file records: shown as the page's last step
            recorder.steps[-1]["end"] = f"the game stops at '{said}': {type(err).__name__}: {err}"
            return str(err)
        recorder.game(s, said)
    return ""


def steps_json(steps: list[Step]) -> str:
    """Return the steps as JSON that may sit inside a <script> element: no '</' or '<!--' closes it early."""
    text = json.dumps(steps, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return text.replace("</", "<\\/").replace("<!--", "\\u003c!--")


def page(title: str, steps: list[Step]) -> str:
    """Return the viewer page of a game's steps (escaped title; the steps as safe JSON)."""
    return environment().get_template("viewer.html.j2").render(
        title=title, count=len(steps), steps_json=steps_json(steps),
        css=(WEB / "viewer.css").read_text(encoding="utf-8"), js=(WEB / "viewer.js").read_text(encoding="utf-8"))


def write_page(out: Path, title: str, steps: list[Step]) -> None:
    """Write the viewer page to out (its folder created if missing)."""
    if out.is_dir():
        raise IsADirectoryError(21, "Is a directory", str(out))  # the CLI says 'cardc: OUT: Is a directory'
    write_atomic(out, page(title, steps))
