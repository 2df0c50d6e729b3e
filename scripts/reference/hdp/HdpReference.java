package hdp;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.util.ArrayList;

import org.apache.commons.math3.random.MersenneTwister;

/**
 * Runs the authors' HDP estimator (fpetitjean/HDP) on one table read from standard input and prints
 * the averaged probabilities of every leaf configuration, one line per run and configuration.
 * Input: first line "m a1 a2 ... ad" (the child's number of values, the conditioning arities,
 * class first); then one line per instance "x c1 c2 ... cd". Arguments: runs, iterations, tying.
 */
public class HdpReference {
	public static void main(String[] args) throws Exception {
		int runs = Integer.parseInt(args[0]);
		int iterations = Integer.parseInt(args[1]);
		int tying = Integer.parseInt(args[2]);
		BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
		String[] head = in.readLine().trim().split(" ");
		int m = Integer.parseInt(head[0]);
		int[] arities = new int[head.length - 1];
		for (int j = 1; j < head.length; j++) {
			arities[j - 1] = Integer.parseInt(head[j]);
		}
		ArrayList<int[]> rows = new ArrayList<>();
		String line;
		while ((line = in.readLine()) != null) {
			if (line.trim().isEmpty()) continue;
			String[] f = line.trim().split(" ");
			int[] r = new int[f.length];
			for (int j = 0; j < f.length; j++) r[j] = Integer.parseInt(f[j]);
			rows.add(r);
		}
		int configs = 1;
		for (int a : arities) configs *= a;
		for (int run = 0; run < runs; run++) {
			ProbabilityTree tree = new ProbabilityTree(m, arities, iterations, tying);
			tree.rng = new MersenneTwister(1000 + run);
			for (int[] r : rows) tree.addObservation(r);
			tree.smoothTree();
			for (int code = 0; code < configs; code++) {
				int[] query = new int[arities.length];
				int rest = code;
				for (int j = arities.length - 1; j >= 0; j--) {
					query[j] = rest % arities[j];
					rest /= arities[j];
				}
				double[] p = tree.query(query);
				StringBuilder sb = new StringBuilder();
				sb.append(run).append(' ').append(code);
				for (double v : p) sb.append(' ').append(v);
				System.out.println(sb);
			}
		}
	}
}
