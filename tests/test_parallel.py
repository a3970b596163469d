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


def test_a_fresh_interpreter_returns_the_function_result_from_this_kg():
    with parallel.Fresh("kg._util.parallel", "can_fork") as fresh:
        assert fresh.result() is parallel.can_fork()
    assert fresh.result() is parallel.can_fork()  # asked again: the same answer


def test_an_error_in_the_fresh_interpreter_is_raised_in_the_caller_with_its_type(tmp_path):
    from kg.errors import StoreError

    fresh = parallel.Fresh("kg.rdf.store", "write_store", str(tmp_path / "missing.nt"), str(tmp_path / "store"))
    with pytest.raises(StoreError, match="cannot write the store"):
        fresh.result()


def test_a_fresh_interpreter_that_dies_is_an_error_with_its_exit_code():
    with pytest.raises(RuntimeError, match=f"exit code -{signal.SIGABRT}"):
        parallel.Fresh("os", "abort").result()


def test_leaving_the_block_with_an_error_kills_the_fresh_interpreter():
    with pytest.raises(ValueError), parallel.Fresh("time", "sleep", "30") as fresh:
        raise ValueError("the caller fails first")
    assert fresh._process.returncode == -signal.SIGKILL
