"""The agent's side of the pipe: the loop that runs in the agent's own process.

It enters the isolation (finscore.runner.isolation), unpickles the agent,
says it is ready, then answers each turn request with one reply message. It
holds no trace, no fixture, no contract and no key: the runtime keeps those in
its own process and only ever sends the view and the history.
"""

from __future__ import annotations

import pickle
from multiprocessing.connection import Connection

from finscore.runner.isolation import Isolation, enter
from finscore.runner.wire import (decode, encode, encode_reply, history_from_data, raised_data, reply_data,
                                  view_from_data)


def host(connection: Connection, payload: bytes, folder: str, isolation: Isolation, sandboxed: bool = False) -> None:
    """Process entry point (spawn): run the pickled agent, turn by turn, until told to stop."""
    try:
        enter(isolation, folder, sandboxed)
        agent = pickle.loads(payload)
    except BaseException as error:  # a start-up failure is reported, whatever it is
        failed = raised_data(error)
        failed["detail"] = "the agent could not start in its process: " + failed["detail"].removeprefix("the agent ")
        connection.send_bytes(encode(failed))
        return
    connection.send_bytes(encode({"type": "ready"}))
    while True:
        try:
            request = decode(connection.recv_bytes())
        except EOFError:
            return
        if request["type"] != "turn":
            return
        try:
            reply = reply_data(agent(view_from_data(request["view"]), history_from_data(request["history"])))
        except BaseException as error:  # the agent's failure is data for the record, whatever it is
            reply = raised_data(error)
        connection.send_bytes(encode_reply(reply))
