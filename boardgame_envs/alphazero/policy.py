"""A trained network as a policy: ``NetworkPolicy.act(state)``, like every built-in opponent."""

from __future__ import annotations

from typing import Any

import numpy as np

from boardgame_envs.alphazero.network import PolicyValueNet
from boardgame_envs.games.opening_rules import CHOOSE
from boardgame_envs.games.protocol import as_family
from boardgame_envs.policies.base import check_budget, check_positive, game_state_of, random_argmax, set_torch_threads
from boardgame_envs.policies.puct import BatchEvaluator, PUCTForest, check_threats
from boardgame_envs.policies.puct_gumbel import gumbel_search
from boardgame_envs.policies.puct_protocol import make_forest


def net_evaluator(net: PolicyValueNet, encoder: Any) -> BatchEvaluator:
    """A :class:`PUCTForest` batch evaluator: encode the leaves with the env, score them in one net call."""

    def evaluate(forest: Any, leaves: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        if isinstance(forest, PUCTForest):  # bare boards: the env's batch encoder
            planes = encoder.observe_boards(forest.leaf_board[leaves], forest.leaf_color[leaves],
                                            forest.leaf_last[leaves], forest.leaf_forbidden[leaves])  # fmt: skip
            return net.predict(planes, forest.leaf_legal[leaves])
        states = [forest.leaf_states[b] for b in leaves]  # protocol states encode themselves
        planes = np.stack([s.planes(s.to_move) for s in states])
        return net.predict(planes, np.stack([s.legal_mask() for s in states]))

    return evaluate


def value_decides(state: Any) -> bool:
    """Whether ``state`` waits for a decision of a tournament opening (``swap``, ``keep``, ``offers=K``, a colour)
    or for the choice among the offered fifth moves: what a policy without simulations settles by its value
    head one action ahead (:meth:`NetworkPolicy._look_ahead`) rather than by its policy head."""
    if as_family(state.game, "opening_rule") is None or not state.in_opening:
        return False
    return state.phase == CHOOSE or not state.legal_mask()[: state.game.points].any()


DEFAULT_VCF_NODES = 50  # per new leaf; at equal CPU time it beat the plain search 49-3 on renju (see threats)


def search_threats(threats: bool, vcf_nodes: int | None) -> tuple[bool, int]:
    """``(threats, vcf_nodes)`` checked, ``vcf_nodes=None`` read as :data:`DEFAULT_VCF_NODES` with threats, else 0."""
    if vcf_nodes is None:
        vcf_nodes = DEFAULT_VCF_NODES if threats is True else 0
    return check_threats(threats, vcf_nodes)


class NetworkPolicy:
    """Plays a :class:`PolicyValueNet`: greedily from its policy head, or after a PUCT search.

    **Under a tournament opening rule** (a network trained on an
    :class:`~boardgame_envs.games.opening_game.OpeningRuleGame`) it plays every
    phase. With simulations, the PUCT search treats the opening's actions as
    any others: a decision such as ``swap`` or ``keep`` is a child whose
    position the value head scores for the player acting there (the planes
    say which colour each holds and what phase it is), backed up to the
    decider with its sign (the same player may act twice in a row), so the
    search takes the decision whose positions it values most; stones and
    fifth-move offers come from the search as in normal play. Without
    simulations, the policy head lays the stones and the offers, and the
    value head takes the decisions and chooses among the offered fifth
    moves: each option's position is scored one action ahead and the best
    for the decider is played (:func:`value_decides`). The threat check
    applies from the first move of normal play (no threat exists in an opening).

    Args:
        net: the network (its input must match the env's planes).
        game: the Game it was trained on; ``act`` refuses other games.
        simulations: 0 plays the most probable legal move of the policy head;
            more runs that many PUCT simulations and plays the most visited move.
        c_puct: PUCT exploration constant.
        threats: check threats before the network (see :mod:`boardgame_envs.policies.puct`): a win at
            once is played, a four is blocked (renju's forbidden points respected), and proven
            wins and losses found in the search decide the move; with ``simulations=0`` the root's
            check alone, then the policy head among the moves it leaves. On by default: on renju it
            won 95 of 104 games against the same network without it at 200 simulations
            (``baselines/studies/results/alphazero_threats.md``).
        vcf_nodes: positions a continuous-four search may visit at each new leaf (m,n,k games; needs
            ``threats``; 0: none); default :data:`DEFAULT_VCF_NODES` with threats, else 0.
        root: ``"puct"``, or ``"gumbel"``: sequential halving over the ``gumbel_k`` best moves of the
            policy head (:mod:`~boardgame_envs.policies.puct_gumbel`, without noise), which plays the
            best candidate and gives the improved policy as its distribution.
        gumbel_k: root candidates of the gumbel root.
        seed: breaks ties between equally good moves.
        torch_threads: CPU threads for torch, set process-wide (``torch.set_num_threads``) unless None.
            One by default: a search scores one position at a time, too little work to share, and
            extra threads only spin against each other (on a busy 2-core machine, 50 times slower).
    """

    name = "network"

    def __init__(
        self, net: PolicyValueNet, game: Any = None, simulations: int = 0, c_puct: float = 1.5,
        seed: int | None = None, torch_threads: int | None = 1, threats: bool = True, vcf_nodes: int | None = None,
        root: str = "puct", gumbel_k: int = 16,
    ) -> None:  # fmt: skip
        check_budget("simulations", simulations, allow_zero=True)
        check_positive("c_puct", c_puct)
        self.threats, self.vcf_nodes = search_threats(threats, vcf_nodes)
        if root not in ("puct", "gumbel"):
            raise ValueError(f"root must be 'puct' or 'gumbel', got {root!r}")
        if isinstance(gumbel_k, bool) or not isinstance(gumbel_k, int) or gumbel_k < 1:
            raise ValueError(f"gumbel_k must be a positive integer, got {gumbel_k!r}")
        self.root, self.gumbel_k = root, gumbel_k
        set_torch_threads(torch_threads)
        self.net = net
        self.game = game
        self.simulations = simulations
        self.c_puct = c_puct
        self.rng = np.random.default_rng(seed)

    @classmethod
    def from_checkpoint(
        cls, path: str, simulations: int = 0, seed: int | None = None, device: str = "cpu", c_puct: float = 1.5,
        threats: bool = True, vcf_nodes: int | None = None, root: str = "puct", gumbel_k: int = 16,
    ) -> NetworkPolicy:  # fmt: skip
        """Load the network of a trainer checkpoint (:func:`~boardgame_envs.alphazero.checkpoint.load_checkpoint`:
        tensors only, their storage and the stated network's size checked); the search options as in the constructor."""
        from boardgame_envs.alphazero.checkpoint import load_checkpoint, network_from

        search_threats(threats, vcf_nodes)  # before the file is read
        checkpoint = load_checkpoint(path, device)
        net, game = network_from(checkpoint, device, source=path)
        return cls(net, game, simulations=simulations, c_puct=c_puct, seed=seed, threats=threats, vcf_nodes=vcf_nodes,
                   root=root, gumbel_k=gumbel_k)  # fmt: skip

    @classmethod
    def from_pretrained(
        cls, name: str, simulations: int | None = None, seed: int | None = None, device: str = "cpu",
        c_puct: float = 1.5, threats: bool | None = None, vcf_nodes: int | None = None, root: str = "puct",
        gumbel_k: int = 16,
    ) -> NetworkPolicy:  # fmt: skip
        """A network shipped with the package, by its name in :data:`boardgame_envs.alphazero.PRETRAINED`.

        ``simulations`` and ``threats`` (with ``vcf_nodes``) default to the entry's own: what its rating
        was measured with. The search options as in the constructor
        (``pretrained:renju-15x15:simulations=200,threats=true,vcf_nodes=50``).
        """
        from boardgame_envs.alphazero.pretrained import pretrained

        entry = pretrained(name)
        if entry.kind != "alphazero":
            raise ValueError(f"pretrained:{name} is a {entry.kind} model, not an AlphaZero network: build it with "
                             f"make_policy('pretrained:{name}')")  # fmt: skip
        sims = entry.simulations if simulations is None else simulations
        if threats is None:
            threats = entry.threats
            vcf_nodes = entry.vcf_nodes if vcf_nodes is None and threats else vcf_nodes
        policy = cls.from_checkpoint(str(entry.path), simulations=sims, seed=seed, device=device, c_puct=c_puct,
                                     threats=threats, vcf_nodes=vcf_nodes, root=root, gumbel_k=gumbel_k)  # fmt: skip
        policy.name = f"pretrained:{name}"
        return policy

    def _position(self, env: Any) -> Any:
        """The state to act on, after checking the game is the net's."""
        state = game_state_of(env)
        if self.game is not None and state.game != self.game:
            ruled = [as_family(g, "opening_rule") is not None for g in (self.game, state.game)]
            why = ""
            if ruled[0] != ruled[1]:  # the same board with and without an opening rule: say what differs
                why = ("; a network trained under an opening rule plays only under it, and one trained without "
                       "plays only without (the planes and actions differ)")  # fmt: skip
            raise ValueError(f"this network was trained on {self.game.describe()}, not {state.game.describe()}{why}")
        return state

    def _encoder(self, game: Any) -> Any:
        """An env of ``game`` whose batch encoder scores the numba forest's bare boards (built once a game)."""
        if getattr(self, "_encoder_env", None) is None or self._encoder_env.game != game:
            from boardgame_envs.envs.board_env import MNKAECEnv

            self._encoder_env = MNKAECEnv(game, ("first", "second"), game.num_planes)
        return self._encoder_env

    def distribution(self, env: Any) -> np.ndarray:
        """The move distribution ``(num_actions,)`` the policy acts on: policy-head priors, or visit shares."""
        return self._distribution(self._position(env))

    def _distribution(self, state: Any) -> np.ndarray:
        return self._search(state)[1]

    def _search(self, state: Any) -> tuple[int | None, np.ndarray]:
        """The move a gumbel root chose (None under PUCT) and the distribution."""
        if self.simulations == 0 and value_decides(state):
            return None, self._look_ahead(state)
        if self.simulations == 0 and not self.threats and self.root == "puct":
            planes = state.planes(state.to_move)  # the env's observation of the player to move
            priors, _ = self.net.predict(planes[None], state.legal_mask()[None])
            return None, priors[0]
        forest = make_forest(1, state.game, 1 + max(self.simulations, 1) * state.game.num_actions, self.c_puct,
                             self.threats, self.vcf_nodes)  # fmt: skip
        forest.set_root(0, state)
        encoder = self._encoder(state.game) if as_family(state.game, "mnk") is not None else None
        if self.root == "gumbel":
            moves, policies = gumbel_search(forest, self.simulations, net_evaluator(self.net, encoder), self.gumbel_k)
            return int(moves[0]), policies[0]
        forest.search(self.simulations, net_evaluator(self.net, encoder))
        return None, forest.root_policy()[0]

    def _look_ahead(self, state: Any) -> np.ndarray:
        """The value head one action ahead: each legal action's position scored for the player to act at
        ``state`` (the value of the player acting there, negated if that is the other player); the
        distribution shares its mass among the best actions."""
        me = state.to_move
        actions = state.legal_actions()
        children = []
        for action in actions.tolist():
            child = state.clone()
            child.play(action)
            children.append(child)
        values = np.zeros(len(children))
        alive = [i for i, child in enumerate(children) if not child.terminal]
        if alive:
            planes = np.stack([children[i].planes(children[i].to_move) for i in alive])
            masks = np.stack([children[i].legal_mask() for i in alive])
            _, scored = self.net.predict(planes, masks)
            for i, value in zip(alive, scored.tolist()):
                values[i] = value if children[i].to_move == me else -value
        for i, child in enumerate(children):
            if child.terminal:
                values[i] = child.returns()[me - 1]
        out = np.zeros(state.game.num_actions)
        best = actions[values >= values.max() - 1e-9]
        out[best] = 1.0 / len(best)
        return out

    def act(self, env: Any) -> int:
        state = self._position(env)
        move, distribution = self._search(state)
        if move is not None:
            return move
        return random_argmax(np.where(state.legal_mask(), distribution, -1.0), self.rng)
