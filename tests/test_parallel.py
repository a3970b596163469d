"""kg._util.parallel.Aside: work in a forked process, its result or its error back in the caller."""
import os
import signal

import pytest

from kg._util import parallel

needs_fork = pytest.mark.skipif(not parallel.can_fork(), reason="processes do not fork here")


@needs_fork
def test_the_forked_work_sees_the_parent_state_and_returns_its_result():
    state = {"papers": list(range(1000))}  # shared by the fork, never pickled
    with parallel.Aside(lambda: (os.getpid(), sum(state["papers"]))) as aside:
        pid, total = aside.result()
    assert pid != os.getpid()
    assert total == 499500


@needs_fork
def test_an_error_in_the_forked_work_is_raised_in_the_caller():
    def broken():
        raise OSError("cannot write graph.nt")

    aside = parallel.Aside(broken)
    with pytest.raises(OSError, match="graph.nt"):
        aside.result()
    with pytest.raises(OSError, match="graph.nt"):  # asked again: the same error, not a hang
        aside.result()


@needs_fork
def test_a_process_killed_before_answering_is_an_error_with_its_exit_code():
    aside = parallel.Aside(lambda: os.kill(os.getpid(), signal.SIGKILL))
    with pytest.raises(RuntimeError, match="exit code -9"):
        aside.result()


@needs_fork
def test_leaving_the_block_early_waits_for_the_process(tmp_path):
    done = tmp_path / "done"
    with pytest.raises(ValueError), parallel.Aside(lambda: done.write_text("written")):
        raise ValueError("the caller fails first")
    assert done.read_text() == "written"  # the process finished before the error left the block


def test_without_fork_the_work_runs_here_when_asked_for():
    calls = []
    aside = parallel.Aside(lambda: calls.append(os.getpid()) or "done", fork=False)
    assert calls == []
    assert aside.result() == "done" and aside.result() == "done"
    assert calls == [os.getpid()]
