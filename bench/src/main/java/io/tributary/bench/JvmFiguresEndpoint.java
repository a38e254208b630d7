package io.tributary.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryUsage;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;

/**
 * {@code GET /actuator/jvmfigures}: the heap in use after two full collections, the threads live,
 * at their peak and by kind (a thread's name with its numbers replaced by {@code N}), and the
 * process's CPU time. A reading collects garbage, so the scenario reads it only between
 * measurements.
 */
@Endpoint(id = "jvmfigures")
public class JvmFiguresEndpoint {

	@ReadOperation
	public Map<String, Object> figures() throws InterruptedException {
		System.gc();
		System.gc();
		Thread.sleep(100);
		MemoryUsage heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage();
		ThreadMXBean threads = ManagementFactory.getThreadMXBean();
		Map<String, Integer> kinds = new TreeMap<>();
		for (ThreadInfo thread : threads.getThreadInfo(threads.getAllThreadIds())) {
			if (thread != null) {
				kinds.merge(thread.getThreadName().replaceAll("[0-9]+", "N"), 1, Integer::sum);
			}
		}
		Map<String, Object> figures = new LinkedHashMap<>();
		figures.put("heapUsedBytes", heap.getUsed());
		figures.put("heapCommittedBytes", heap.getCommitted());
		figures.put("heapMaxBytes", heap.getMax());
		figures.put("threadsLive", threads.getThreadCount());
		figures.put("threadsPeak", threads.getPeakThreadCount());
		figures.put("threadKinds", kinds);
		if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
			figures.put("cpuSeconds", os.getProcessCpuTime() / 1e9);
		}
		return figures;
	}

}
